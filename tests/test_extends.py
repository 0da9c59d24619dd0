"""House rules written as `extends:` plus changes: merging, removal, positions in the right file."""

from __future__ import annotations

from pathlib import Path

import pytest
from shipped import shipped_that_load

from rulesengine import check_edition, load_edition

AUSTRALIA = Path(__file__).resolve().parent.parent / "editions" / "australia.yaml"


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def errors_of(path):
    edition, diagnostics = check_edition(path)
    assert edition is None
    return [(d.span.file, d.span.line, d.span.col, d.code, d.message) for d in diagnostics if d.severity == "error"]


def test_override_a_value_and_a_category_expression(tmp_path):
    path = write(tmp_path, "v.yaml", f"""extends: {AUSTRALIA}
id: v
rounds: 5
categories:
  - key: collections
    score: sum([value(i) for i in icons(cards, collection)])
""")
    edition = load_edition(path)
    assert edition.rounds == 5
    collections = next(c for c in edition.categories if c.key == "collections")
    assert collections.title == "Collections"  # kept from the parent entry
    assert [c.key for c in edition.categories] == ["throw_catch", "collections", "animals", "activities", "sites"]
    leaves_and_shell = [edition.card(x) for x in "AVYCBEF"]
    assert collections.score.run({"cards": leaves_and_shell}) == 6  # no doubling in this house rule


def test_add_and_remove_entries(tmp_path):
    path = write(tmp_path, "v.yaml", f"""extends: {AUSTRALIA}
id: v
remove:
  categories: [activities]
  races: [regions]
categories:
  - key: numbers
    score: sum([c.number for c in cards])
""")
    edition = load_edition(path)
    assert [c.key for c in edition.categories] == ["throw_catch", "collections", "animals", "sites", "numbers"]
    assert edition.races == ()
    assert edition.choice_categories == ()


def test_an_error_in_the_child_points_into_the_child(tmp_path):
    path = write(tmp_path, "v.yaml", f"""extends: {AUSTRALIA}
id: v
categories:
  - key: collections
    score: len(cardz)
""")
    assert errors_of(path) == [(str(path), 5, 16, "D202", "unknown name 'cardz'")]


def test_an_error_in_the_parent_points_into_the_parent(tmp_path):
    parent = write(tmp_path, "parent.yaml", AUSTRALIA.read_text().replace("catch.number)", "cach.number)"))
    child = write(tmp_path, "child.yaml", "extends: parent.yaml\nid: child\n")
    assert errors_of(child) == [(str(parent), 78, 31, "D202", "unknown name 'cach'")]


def test_merged_entry_errors_point_at_the_entry_that_gave_the_value(tmp_path):
    child = write(tmp_path, "child.yaml", f"""extends: {AUSTRALIA}
id: child
cards:
  - {{letter: 'K', icons: [Souvenir, Bushwalking]}}
""")
    assert errors_of(child) == [(str(child), 4, 27, "M305", "unknown icon 'Souvenir'")]


def test_removing_something_that_does_not_exist(tmp_path):
    path = write(tmp_path, "v.yaml", f"extends: {AUSTRALIA}\nremove:\n  categories: [activites]\n")
    [(file, line, col, code, message)] = errors_of(path)
    assert (line, col, code, message) == (3, 16, "X806", "there is no category 'activites' to remove")


def test_extends_cycles_and_missing_parents(tmp_path):
    write(tmp_path, "a.yaml", "extends: b.yaml\n")
    write(tmp_path, "b.yaml", "extends: a.yaml\n")
    [(file, line, col, code, message)] = errors_of(tmp_path / "a.yaml")
    assert code == "X802" and message == "'extends' makes a cycle: a.yaml -> b.yaml -> a.yaml"
    write(tmp_path, "c.yaml", "extends: nowhere.yaml\n")
    [(file, line, col, code, message)] = errors_of(tmp_path / "c.yaml")
    assert (line, col, code) == (1, 10, "X804")


def test_a_variant_that_breaks_a_check_of_the_parent(tmp_path):
    path = write(tmp_path, "v.yaml", f"extends: {AUSTRALIA}\nid: v\nhand_size: 8\n")
    [(file, line, col, code, message)] = errors_of(path)
    assert (file, line, col, code) == (str(path), 3, 12, "M308")


@pytest.mark.parametrize("variant", [p for p in shipped_that_load() if p.parent.name == "variants"],
                         ids=lambda p: p.name)
def test_every_shipped_variant_validates_and_plays(variant):
    from rulesengine import Game
    from rulesengine.bots.registry import RandomAgent
    from rulesengine.game.loop import play

    edition = load_edition(variant)
    for players in range(edition.players_min, edition.players_max + 1):
        game = play(Game(edition, [f"p{i}" for i in range(players)], players), [RandomAgent(s) for s in range(players)])
        if edition.round.rounds is None:  # a round that ends with its deck (the 2010 game's): what was captured
            assert game.over and set(game.record()["captured"]) == set(game.players)
        else:
            assert len(game.record()["rounds"]) == edition.rounds
