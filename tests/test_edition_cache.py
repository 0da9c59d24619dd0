"""The cache of checked editions (rulesengine/edition/cache.py): an edition read back from it is the one a fresh
check builds and plays the same games; a changed file, parent or code is checked again; warnings are said again;
an entry that is corrupt, or that anyone else could have written, is never used."""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest
from click.testing import CliRunner
from fingerprints import play_fingerprint

from cli.main import main
from rulesengine import check_edition, load_edition
from rulesengine.dsl import walk
from rulesengine.edition import cache, loader
from rulesengine.edition.model import Expression, Located

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = ROOT / "editions"


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("BOOM_EDITION_CACHE", raising=False)
    return tmp_path / "cache" / "boom"


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("edition-*.pickle"))


def checked_afresh(monkeypatch):
    """From here on a check that is not read from the cache fails the test."""
    def refuse(*args, **kwargs):
        raise AssertionError("checked afresh, not read from the cache")

    monkeypatch.setattr(loader, "check_text", refuse)


def same(a, b, seen=None, where="edition") -> None:
    """a and b hold the same values, part by part: cards, regions and families (compared by identity in a game)
    field by field, expressions by text, place, checked tree, resolved names, runner and located spans."""
    seen = set() if seen is None else seen
    if (id(a), id(b)) in seen:
        return
    seen.add((id(a), id(b)))
    assert type(a) is type(b), where
    if isinstance(a, Expression):
        assert (a.text, a.path, a.variables, a.texts) == (b.text, b.path, b.variables, b.texts), where
        assert (a.run is None) == (b.run is None) and getattr(a.run, "runner", None) == getattr(b.run, "runner", None)
        if a.tree is not None:
            assert a.tree[0] == b.tree[0], where
            same([a.tree[1].get(id(n)) for n in walk(a.tree[0])], [b.tree[1].get(id(n)) for n in walk(b.tree[0])],
                 seen, where + ".resolved")
            same(a.tree[2], b.tree[2], seen, where + ".lookups")
        if isinstance(a.locate, Located):
            assert a.locate(0, len(a.text)) == b.locate(0, len(b.text)), where
        return
    if dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            if f.compare and f.name not in ("_kept", "kept"):
                same(getattr(a, f.name), getattr(b, f.name), seen, f"{where}.{f.name}")
    elif isinstance(a, dict):
        assert len(a) == len(b), where
        for (ka, va), (kb, vb) in zip(a.items(), b.items(), strict=True):
            same(ka, kb, seen, f"{where}[{ka!r}]")
            same(va, vb, seen, f"{where}[{ka!r}]")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            same(x, y, seen, f"{where}[{index}]")
    elif isinstance(a, (set, frozenset)):
        assert sorted(map(repr, a)) == sorted(map(repr, b)), where
    elif isinstance(a, types.SimpleNamespace):
        same(vars(a), vars(b), seen, where)
    elif callable(a) and not isinstance(a, type):
        return
    else:
        assert a == b, where


@pytest.mark.parametrize("name", ["australia", "europe", "usa", "boomerang-2010", "variants/australia-europe",
                                  "variants/australia-koala-majority", "variants/australia-public-goals"])
@pytest.mark.parametrize("runner", ["compiled", "reference"])
def test_an_edition_read_from_the_cache_is_the_fresh_one_and_plays_the_same_games(name, runner, cache_home,
                                                                                  monkeypatch):
    path = EDITIONS / f"{name}.yaml"
    monkeypatch.setenv("BOOM_EDITION_CACHE", "off")
    fresh = load_edition(path, runner=runner)
    assert not cache_home.exists() or entries(cache_home) == []
    monkeypatch.delenv("BOOM_EDITION_CACHE")
    load_edition(path, runner=runner)                                       # checked, then written
    [entry] = entries(cache_home)
    assert entry.stat().st_mode & 0o777 == 0o600
    checked_afresh(monkeypatch)
    cached = load_edition(path, runner=runner)
    same(fresh, cached)
    players = fresh.players_min
    for kinds, seed in ((["random"] * players, 7), (["greedy"] * players, 3)):
        assert play_fingerprint(cached, kinds, seed, True) == play_fingerprint(fresh, kinds, seed, True)


def test_a_changed_parent_or_a_file_that_now_stands_for_a_shipped_parent_is_read_afresh(cache_home, tmp_path):
    parent = tmp_path / "parent.yaml"
    shutil.copy(EDITIONS / "australia.yaml", parent)
    house = tmp_path / "house.yaml"
    house.write_text("extends: parent.yaml\nid: house\nrounds: 3\n")
    assert load_edition(house).rounds == 3
    assert load_edition(house).name == "Boomerang: Australia"
    parent.write_text(parent.read_text().replace("name: \"Boomerang: Australia\"", "name: \"Changed\""))
    assert load_edition(house).name == "Changed"
    shipped = tmp_path / "by-name.yaml"
    shipped.write_text("extends: australia\nid: by-name\n")
    assert load_edition(shipped).name == "Boomerang: Australia"
    shutil.copy(parent, tmp_path / "australia")       # now `extends: australia` is this file next to it
    assert load_edition(shipped).name == "Changed"
    assert len(entries(cache_home)) == 2


def test_a_change_of_the_code_that_builds_editions_reads_it_afresh(cache_home, monkeypatch):
    load_edition(EDITIONS / "australia.yaml")
    monkeypatch.setattr(cache, "_code", ["another version"])
    calls = []
    real = loader.check_text
    monkeypatch.setattr(loader, "check_text", lambda *a, **k: calls.append(1) or real(*a, **k))
    load_edition(EDITIONS / "australia.yaml")
    load_edition(EDITIONS / "australia.yaml")
    assert calls == [1]


def test_warnings_come_again_from_the_cache_and_validate_says_them_alike(cache_home, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "house.yaml").write_text("extends: australia\nid: house\ncategories:\n  - key: koala_bonus\n"
                                         "    description: 2 a Koala.\n    score: 2 * count('Koalas', cards)\n")
    first = CliRunner().invoke(main, ["validate", "house.yaml"])
    edition, diagnostics = check_edition("house.yaml")
    assert [(d.code, d.span.line, d.message) for d in diagnostics if d.severity == "warning"] == [
        ("W411", 4, "the new category 'koala_bonus' has no title, so the sheet shows 'koala_bonus'")]
    checked_afresh(monkeypatch)
    again = CliRunner().invoke(main, ["validate", "house.yaml"])
    assert (again.exit_code, again.output) == (first.exit_code, first.output) == (0, first.output)
    assert "W411" in again.output and "house.yaml: ok: " in again.output
    assert check_edition("house.yaml")[1] == diagnostics


def test_an_edition_with_errors_is_not_kept(cache_home, tmp_path):
    (tmp_path / "bad.yaml").write_text(f"extends: {EDITIONS / 'australia.yaml'}\nid: bad\nrounds: 0\n")
    assert check_edition(tmp_path / "bad.yaml")[0] is None
    assert entries(cache_home) == []


def test_a_corrupt_or_truncated_entry_is_a_miss_and_is_written_again(cache_home, monkeypatch):
    path = EDITIONS / "usa.yaml"
    load_edition(path)
    [entry] = entries(cache_home)
    good = entry.read_bytes()
    for broken in (b"", b"not a pickle", good[: len(good) // 2], good[:-40], pickle.dumps({"format": 1})):
        entry.write_bytes(broken)
        assert load_edition(path).name == "Boomerang: USA"
        assert entry.read_bytes() != broken and entries(cache_home) == [entry]


def test_only_an_entry_the_user_alone_can_write_is_ever_read(cache_home, monkeypatch, tmp_path):
    """A pickle can run code: the entry of usa.yaml given the edition of europe.yaml is read (the checks of the
    files pass: the trust is in who wrote it), until someone else could have written it, or it is a link."""
    load_edition(EDITIONS / "usa.yaml")
    load_edition(EDITIONS / "europe.yaml")
    entry = cache.Path(cache_home) / cache._entry_name(EDITIONS / "usa.yaml", EDITIONS / "usa.yaml", True, "compiled")
    other = cache.Path(cache_home) / cache._entry_name(EDITIONS / "europe.yaml", EDITIONS / "europe.yaml", True,
                                                       "compiled")
    with open(entry, "rb") as stream:
        header = pickle.load(stream)
    with open(other, "rb") as stream:
        pickle.load(stream)
        payload = stream.read()
    entry.write_bytes(pickle.dumps(header) + payload)
    assert load_edition(EDITIONS / "usa.yaml").name == "Boomerang: Europe"        # ours: read
    for mode in (0o620, 0o602):
        entry.write_bytes(pickle.dumps(header) + payload)
        entry.chmod(mode)
        assert load_edition(EDITIONS / "usa.yaml").name == "Boomerang: USA", oct(mode)
    planted = tmp_path / "planted.pickle"
    planted.write_bytes(pickle.dumps(header) + payload)
    entry.unlink()
    entry.symlink_to(planted)
    assert load_edition(EDITIONS / "usa.yaml").name == "Boomerang: USA"
    os.chmod(cache_home, 0o777)
    entry.unlink()
    load_edition(EDITIONS / "usa.yaml")
    assert not entry.exists()                                  # a folder others can write: no cache at all


def test_the_cache_can_be_turned_off(cache_home, monkeypatch):
    monkeypatch.setenv("BOOM_EDITION_CACHE", "off")
    load_edition(EDITIONS / "australia.yaml")
    assert not cache_home.exists() or entries(cache_home) == []


def test_a_one_game_command_from_the_cache_imports_no_yaml_schema_or_parser(cache_home):
    """#35's start-up: the second run of a command reads the edition back, without PyYAML, jsonschema or Lark."""
    code = ("import sys\nfrom cli.main import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "print(sorted({m.split('.')[0] for m in sys.modules if m.startswith(('lark', 'jsonschema', 'yaml'))}))")
    argv = [sys.executable, "-c", code, "tournament", str(EDITIONS / "australia.yaml"), "-n", "1", "--seats",
            "random,random", "--jobs", "1"]
    env = dict(os.environ, XDG_CACHE_HOME=str(cache_home.parent))
    first = subprocess.run(argv, capture_output=True, text=True, check=True, env=env).stdout
    assert first.splitlines()[-1] == "['jsonschema', 'jsonschema_specifications', 'lark', 'yaml']"
    again = subprocess.run(argv, capture_output=True, text=True, check=True, env=env).stdout
    assert again.splitlines()[-1] == "[]"


def test_a_temporary_edition_is_not_kept_and_the_least_recently_used_entries_go(cache_home, monkeypatch):
    from rulesengine.net.editions import edition_from_data
    from rulesengine.simulate.source import EditionSource

    source = EditionSource.read(EDITIONS / "europe.yaml")
    assert source.compile().name == edition_from_data(json.loads(source.text)).name == "Boomerang: Europe"
    assert not cache_home.exists() or entries(cache_home) == []      # a worker's copy, a server's upload
    monkeypatch.setattr(cache, "KEPT", 2)
    names = ("australia", "europe", "usa", "boomerang-2010")
    entry = {name: cache_home / cache._entry_name(EDITIONS / f"{name}.yaml", EDITIONS / f"{name}.yaml", True,
                                                  "compiled") for name in names}
    for at, name in enumerate(("australia", "europe", "usa"), 1):
        load_edition(EDITIONS / f"{name}.yaml")
        os.utime(entry[name], (at, at))
    assert entries(cache_home) == sorted([entry["europe"], entry["usa"]])
    load_edition(EDITIONS / "europe.yaml")                            # read back: now the most recently used
    load_edition(EDITIONS / "boomerang-2010.yaml")
    assert entries(cache_home) == sorted([entry["europe"], entry["boomerang-2010"]])


def test_the_code_digest_is_worked_out_again_when_a_file_of_the_code_changes_size_or_time(cache_home, monkeypatch):
    monkeypatch.setattr(cache, "_code", [])
    cache_home.mkdir(parents=True)
    digest = cache.code_digest(cache_home)
    memo = json.loads((cache_home / cache.CODE_STAMP).read_text())
    assert memo["code"] == digest and len(digest) == 64
    (cache_home / cache.CODE_STAMP).write_text(json.dumps({"stamp": "another", "code": "stale"}))
    monkeypatch.setattr(cache, "_code", [])
    assert cache.code_digest(cache_home) == digest                   # the files' times differ: read again
    (cache_home / cache.CODE_STAMP).write_text("{not json")
    monkeypatch.setattr(cache, "_code", [])
    assert cache.code_digest(cache_home) == digest
    (cache_home / cache.CODE_STAMP).write_text(json.dumps({"stamp": memo["stamp"], "code": "kept"}))
    monkeypatch.setattr(cache, "_code", [])
    assert cache.code_digest(cache_home) == "kept"                   # the same sizes and times: trusted
