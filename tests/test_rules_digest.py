"""The digest of what an edition plays (edition/rules_digest.py, issue #31): words never change it, rules
always do, and a save compares it so that a reworded edition resumes while a changed one is refused."""

from __future__ import annotations

import json

from click.testing import CliRunner
from conftest import EDITIONS

from cli.main import main
from rulesengine import load_edition
from rulesengine.edition.rules_digest import WORDS
from rulesengine.edition.schema import schema_document
from rulesengine.game.saves import Session

AUSTRALIA = EDITIONS / "australia.yaml"


def house_rule(tmp_path, text: str, name: str = "rule.yaml"):
    path = tmp_path / name
    path.write_text(f"extends: {AUSTRALIA}\nid: australia\n{text}", encoding="utf-8")
    return load_edition(path)


def test_the_words_and_the_tune_ranges_change_nothing_the_rules_change_it(tmp_path):
    plain = load_edition(AUSTRALIA).rules_sha256
    reworded = house_rule(tmp_path, """name: Another name
description: Other words.
provenance: Somewhere else.
families: {animal: {title: Beasts}}
cards: [{letter: A, name: Somewhere, reconstructed: [number]}]
regions: [{name: Tasmania, reconstructed: [bonus]}]
categories:
  - {key: animals, title: Pairs, description: "Pairs of animals, {families.animal}."}
  - {key: activities, choice: {description: Choose one.}}
races: [{key: regions, title: Firsts, description: The first to complete a region.}]
tune: {families.animal.icons.*: 0..9}
""")
    assert reworded.rules_sha256 == plain and len(plain) == 64
    changed = {
        "a value": "families: {animal: {icons: {Koalas: 8}}}",
        "a card's number": "cards: [{letter: A, number: 2}]",
        "the deck's order": "remove: {cards: [A]}\ncards: [{letter: A, name: The Bungle Bungles, region: Western "
                            "Australia, number: 1, icons: [Leaves, Indigenous Culture]}]",
        "the order of a family's kinds": "families: {animal: {icons: {replace: {Emus: 4, Kangaroos: 3, Wombats: 5, "
                                          "Koalas: 7, Platypuses: 9}}}}",
        "an expression": "categories: [{key: animals, score: 'len(cards)'}]",
        "a bonus": "regions: [{name: Tasmania, bonus: 4}]",
        "a table row": "tables: {activity_points: {6: 16}}",
        "the passing": "passing: {catch: previous}",
        "the players": "players: {max: 3}",
    }
    digests = {what: house_rule(tmp_path, text, f"{index}.yaml").rules_sha256
               for index, (what, text) in enumerate(changed.items())}
    assert plain not in digests.values() and len(set(digests.values())) == len(changed)


def test_the_words_are_every_name_title_description_and_mark_of_the_schema_but_a_region_name():
    found = []

    def walk(node, path):
        if not isinstance(node, dict):
            return
        for key, sub in (node.get("properties") or {}).items():
            if key in ("name", "title", "description", "provenance", "reconstructed"):
                found.append(path + (key,))
            walk(sub, path + (key,))
        for word in ("anyOf", "oneOf"):
            for branch in node.get(word) or ():
                walk(branch, path)
        if isinstance(node.get("items"), dict):
            walk(node["items"], path + ("[]",))
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], path + ("*",))

    walk(schema_document(), ())
    assert sorted(found) == sorted([*WORDS, ("regions", "[]", "name")])


def test_a_save_refuses_a_parent_whose_rules_changed_though_its_own_file_did_not(tmp_path):
    parent = tmp_path / "australia.yaml"
    parent.write_text(AUSTRALIA.read_text(encoding="utf-8"), encoding="utf-8")
    variant = tmp_path / "five.yaml"
    variant.write_text("extends: australia.yaml\nid: five\nrounds: 5\n", encoding="utf-8")
    save = tmp_path / "g.json"
    Session.start(variant, ["Ana", "Ben"], ["random", "random"], 3, save_path=str(save)).unlock()
    assert json.loads(save.read_text())["rules_sha256"] == load_edition(variant).rules_sha256
    parent.write_text(AUSTRALIA.read_text(encoding="utf-8").replace("Koalas: 7", "Koalas: 8"), encoding="utf-8")
    refused = CliRunner().invoke(main, ["resume", str(save), "-q"])
    assert refused.exit_code == 1
    assert (f"the rules of {variant} changed since the game was saved (in an edition it extends or borrows from)"
            in refused.output)


def test_replay_says_a_log_s_edition_changed_in_its_words_only(tmp_path):
    edition = tmp_path / "australia.yaml"
    edition.write_text(AUSTRALIA.read_text(encoding="utf-8"), encoding="utf-8")
    log = tmp_path / "g.jsonl"
    played = CliRunner().invoke(main, ["run", str(edition), "-p", "2", "--seed", "4", "-q", "--log", str(log)])
    assert played.exit_code == 0, played.output
    edition.write_text(AUSTRALIA.read_text(encoding="utf-8").replace("never negative", "at least 0"),
                       encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(log), "--verify"])
    assert result.exit_code == 0, result.output
    assert (f"note: {log}:1: the edition file {edition} differs from the one the game was played with, in its "
            "words only (the rules are the same); every decision and event still replays identically") in result.output
