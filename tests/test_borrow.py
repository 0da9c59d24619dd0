"""Cards from another edition (`borrow:`, issue #31): a mixed Australia + Europe deck without copying 28 cards.

The shipped variant editions/variants/australia-europe.yaml takes Europe's cards as Europe has them,
re-lettered, with their families, regions, three categories and a race; a round of it is scored by
hand. Every clash is an error at the `borrow:` entry, and the terminal tells a from A."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import EDITIONS

from cli.main import main
from rulesengine import Game, load_edition
from rulesengine.bots.registry import agent_seed, make_bot
from rulesengine.edition.loader import check_edition
from rulesengine.game.loop import play
from rulesengine.game.scoring import ScoreKeeper

PATH = EDITIONS / "variants" / "australia-europe.yaml"
EUROPE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ@#"
HERE_LETTERS = [*"abcdefghijklmnopqrstuvwxyz", "@2", "#2"]


@pytest.fixture(scope="module")
def mixed():
    return load_edition(PATH)


def test_the_mixed_deck_is_australia_then_europe_as_each_has_it(mixed):
    australia, europe = load_edition(EDITIONS / "australia.yaml"), load_edition(EDITIONS / "europe.yaml")
    assert [c.letter for c in mixed.cards] == [c.letter for c in australia.cards] + HERE_LETTERS
    for theirs, here in zip(europe.cards, HERE_LETTERS, strict=True):
        card = mixed.card(here)
        assert (card.name, card.region.name, card.number, card.icons, card.reconstructed) == (
            theirs.name, theirs.region.name, theirs.number, theirs.icons, theirs.reconstructed)
    for theirs in (australia, europe):
        for key, family in theirs.families.items():
            assert (mixed.families[key].title, mixed.families[key].icons, mixed.families[key].values) == (
                family.title, family.icons, family.values)
    assert [(r.name, r.bonus) for r in mixed.regions] == [(r.name, r.bonus) for r in australia.regions + europe.regions]
    assert [c.key for c in mixed.categories] == ["throw_catch", "collections", "animals", "activities", "sites",
                                                 "cuisine", "transport", "treasures"]
    assert [r.key for r in mixed.races] == ["regions", "passport"]
    assert (mixed.players_min, mixed.players_max, len(mixed.cards), mixed.reconstructed_facts) == (2, 8, 56, 103)
    assert mixed.tables["treasure_rate"].rows == {2: 4, 3: 3, 4: 2, 5: 2, 6: 2, 7: 2, 8: 2}


def test_a_round_of_the_mixed_deck_scored_by_hand(mixed):
    """Three players; a draft's first card is the Throw, its last the Catch.

    Ann: i Ireland 6 (Natural Wonders, Spirits), j United Kingdom 3 (Art, Train), n Germany 7 (Beer,
    Train), Y Salamanca Markets 7 (Leaves, Emus), N Lake Eyre 3 (Emus, Swimming), H King's Canyon 4
    (Koalas, Swimming), k Belgium 2 (Music, Beer); Swimming and Art chosen.
      Throw & Catch |6 - 2| = 4; Collections Leaves 1, doubled: 2; Animals a pair of Emus: 4;
      Activities 2 Swimming: 2; Cuisine Spirits 5 + Beer 1 + Beer 1 = 7 (under 8: not halved);
      Transport a pair of Trains: 4; Treasures Art on the others' cards (Bob's b, l, x, Cy's w) 4 x 3 = 12;
      British Isles (i, j) complete: its bonus 2. Round: 37.
    Bob: b Denmark 5 (Art, Bicycle), g Latvia 4 (Architecture, Bicycle), l Netherlands 4 (Art, Boat),
    A The Bungle Bungles 1 (Leaves, Indigenous Culture), V The MCG 2 (Leaves, Indigenous Culture),
    K Daintree 6 (Souvenirs, Bushwalking), x Italy 7 (Art, Car); Indigenous Culture and Art chosen.
      Throw & Catch |5 - 7| = 2; Collections 1 + 1 + 5 = 7, doubled: 14; Activities 2: 2; Transport a
      pair of Bicycles: 5; Treasures Art on Ann's j and Cy's w: 2 x 3 = 6. Round: 29.
    Cy: q Poland 5 (Music, Bicycle), r Czech Republic 7 (Music, Beer), s Slovakia 6 (Architecture,
    Cheese), t Hungary 2 (Architecture, Car), B The Pinnacles 1 (Kangaroos, Sightseeing), O Kangaroo
    Island 3 (Kangaroos, Bushwalking), w France 1 (Art, Wine); no activity, Music chosen.
      Throw & Catch |5 - 1| = 4; Animals a pair of Kangaroos: 3; Cuisine 1 + 2 + 3 = 6; Treasures
      Music on Ann's k: 1 x 3 = 3; Eastern (q, r, s, t) complete: its bonus 3. Round: 19.
    """
    scores = ScoreKeeper(mixed, ["Ann", "Bob", "Cy"])
    drafts = [[mixed.card(x) for x in letters] for letters in (list("ijnYNHk"), list("bglAVKx"), list("qrstBOw"))]
    choices = [{"activities": "Swimming", "treasures": "Art"}, {"activities": "Indigenous Culture", "treasures": "Art"},
               {"treasures": "Music"}]
    scores.score_round(drafts, choices)
    zero = dict.fromkeys(["throw_catch", "collections", "animals", "activities", "cuisine", "transport",
                          "treasures", "regions", "passport"], 0)
    assert scores.rounds[0][0] == dict(zero, throw_catch=4, collections=2, animals=4, activities=2, cuisine=7,
                                       transport=4, treasures=12, regions=2)
    assert scores.rounds[1][0] == dict(zero, throw_catch=2, collections=14, activities=2, transport=5, treasures=6)
    assert scores.rounds[2][0] == dict(zero, throw_catch=4, animals=3, cuisine=6, treasures=3, regions=3)
    assert [scores.round_totals(seat)[0] for seat in range(3)] == [37, 29, 19]


def rule(tmp_path, text: str, name: str = "rule.yaml"):
    path = tmp_path / name
    path.write_text(f"extends: {EDITIONS / 'australia.yaml'}\nid: rule\n{text}", encoding="utf-8")
    return path


def errors(path) -> list[tuple]:
    _, diagnostics = check_edition(path)
    return [(d.code, d.span.line, d.span.col, d.message, d.hint, [n.message for n in d.notes])
            for d in diagnostics if d.severity == "error"]


def test_cards_by_letter_with_letters_given_one_by_one(tmp_path):
    path = rule(tmp_path, "borrow:\n  - from: europe\n    cards: [W, '#']\n    letters: {W: w, '#': '&'}\n")
    edition, diagnostics = check_edition(path)
    assert [d.code for d in diagnostics if d.severity == "error"] == []
    assert [c.letter for c in edition.cards[-2:]] == ["w", "&"]
    assert (edition.card("&").name, edition.card("&").region.name, edition.card("&").icons) == (
        "Malta", "Southern", ("Architecture", "Boat"))
    assert [c.letter for c in edition.regions[-1].cards] == ["w", "&"]  # only the borrowed cards of Southern
    assert edition.families["national_treasure"].icons == ("Art", "Architecture", "Music", "Natural Wonders")
    assert [c.key for c in edition.categories] == ["throw_catch", "collections", "animals", "activities", "sites"]


def test_a_family_both_editions_have_gains_the_icons_it_lacks(tmp_path):
    edition = load_edition(rule(tmp_path, "borrow:\n  - from: usa\n    letters: auto\nplayers: {max: 8}\n"))
    assert edition.families["animal"].values == {"Kangaroos": 3, "Emus": 4, "Wombats": 5, "Koalas": 7,
                                                 "Platypuses": 9, "Trout": 3, "Cattle": 4, "Grizzly": 5,
                                                 "Bald eagle": 7, "Bigfoot": 9}
    assert edition.families["activity"].icons == ("Indigenous Culture", "Sightseeing", "Bushwalking", "Swimming",
                                                  "Sporting events", "Hiking", "Dining")
    assert len(edition.cards) == 56 and edition.card("a").name == load_edition(EDITIONS / "usa.yaml").cards[0].name


def test_a_letter_taken_twice_is_an_error_at_the_letter_that_takes_it(tmp_path):
    path = rule(tmp_path, "borrow:\n  - from: europe\n    cards: [W, X]\n    letters: {X: w, W: w}\n")
    assert errors(path) == [
        ("X808", 6, 18, "card letter 'w' is taken twice: by card 'W' (France) and by card 'X' (Italy) of europe",
         "give it another letter: letters: {'X': ...}, or letters: auto", []),
    ]
    path = rule(tmp_path, "borrow:\n  - from: europe\n    cards: [W]\n")
    [(code, line, col, message, hint, notes)] = errors(path)
    assert (code, line, col) == ("X808", 5, 13)
    assert message == "card letter 'W' is taken twice: by Twelve Apostles here and by card 'W' (France) of europe"
    assert notes == ["Twelve Apostles has the letter 'W'"]


def test_keys_and_tables_taken_twice_and_names_the_other_edition_lacks(tmp_path):
    path = rule(tmp_path, "tables: {treasure_rate: {2: 5}}\nborrow:\n  - from: europe\n    letters: {Q: q}\n"
                          "    cards: [Q, Ä]\n    categories: [throw_catch, treasures, cusine]\n")
    assert [e[:5] for e in errors(path)] == [
        ("X810", 7, 16, "europe has no card 'Ä'", f"its letters: {' '.join(EUROPE_LETTERS)}"),
        ("X808", 8, 18, "the key 'throw_catch' is taken twice: by this edition's category and by a category "
                        "of europe", "change it after borrowing it: categories: [{key: throw_catch, ...}] in this "
                        "file"),
        ("X810", 8, 42, "europe has no category 'cusine'", "did you mean 'cuisine'?"),
    ]
    # the file's own table is merged after the borrow: it changes the borrowed one, as it would the parent's
    edition = load_edition(rule(tmp_path, "tables: {treasure_rate: {2: 5}}\nborrow:\n  - from: europe\n"
                                          "    letters: auto\n    categories: [treasures]\n"))
    assert edition.tables["treasure_rate"].rows == {2: 5, 3: 3, 4: 2}
    clash = tmp_path / "parent.yaml"
    clash.write_text(f"extends: {EDITIONS / 'australia.yaml'}\nid: parent\ntables: {{treasure_rate: {{2: 5}}}}\n")
    path = tmp_path / "child.yaml"
    path.write_text("extends: parent.yaml\nid: child\nborrow:\n  - from: europe\n    letters: auto\n"
                    "    categories: [treasures]\n")
    assert [e[:4] for e in errors(path)] == [("X808", 4, 11, "the table 'treasure_rate' has other rows here than "
                                                              "in europe")]


def test_what_means_something_else_here_is_an_error_with_both_places(tmp_path):
    other = tmp_path / "other.yaml"
    other.write_text(f"extends: {EDITIONS / 'australia.yaml'}\nid: other\n"
                     "families:\n  animal: {icons: {Koalas: 8}}\n  sights: {title: Sights, icons: [Views]}\n"
                     "regions: [{name: Tasmania, bonus: 5}, {name: Bass Strait, bonus: 2}]\n"
                     "cards:\n  - {letter: '%', name: Hobart, region: Tasmania, number: 7, icons: [Koalas, Views]}\n"
                     "  - {letter: '&', name: King Island, region: Bass Strait, number: 2, icons: [Emus, Views]}\n")
    path = rule(tmp_path, "borrow:\n  - from: other.yaml\n    cards: ['%', '#']\n    letters: {'#': h}\n")
    assert [(e[0], e[1], e[2], e[3], e[5]) for e in errors(path)] == [  # two cards of Tasmania: one error
        ("X809", 4, 11, "the icon 'Koalas' is worth 7 here and 8 in other.yaml",
         ["'Koalas' is worth 7 here", "and 8 in other.yaml"]),
        ("X809", 4, 11, "the region 'Tasmania' has a bonus of 3 here and 5 in other.yaml",
         ["the bonus of 'Tasmania' here", "the bonus of 'Tasmania' in other.yaml"]),
    ]
    parent = tmp_path / "scenery.yaml"
    parent.write_text(f"extends: {EDITIONS / 'australia.yaml'}\nid: scenery\n"
                      "families: {scenery: {title: Scenery, icons: [Views]}}\n")
    path = tmp_path / "child.yaml"
    path.write_text("extends: scenery.yaml\nid: child\nborrow:\n  - from: other.yaml\n    cards: ['&']\n")
    assert [e[3] for e in errors(path)] == [  # a family comes whole: Koalas too, though King Island shows none
        "the icon 'Koalas' is worth 7 here and 8 in other.yaml",
        "the icon 'Views' is in the family 'scenery' here but in 'sights' in other.yaml"]
    valued = tmp_path / "valued.yaml"
    valued.write_text("format: 1\nid: valued\nname: Valued\nplayers: {min: 2, max: 2}\nrounds: 1\nhand_size: 2\n"
                      "passing: {directions: [left]}\nfamilies: {activity: {title: Paid, icons: {Surfing: 2}}}\n"
                      "regions: [{name: Coast, bonus: 1}]\ncards:\n"
                      "  - {letter: s, name: Bells Beach, region: Coast, number: 1, icons: [Surfing]}\n"
                      "  - {letter: t, name: Byron Bay, region: Coast, number: 2, icons: [Surfing]}\n"
                      "  - {letter: u, name: Torquay, region: Coast, number: 3, icons: [Surfing]}\n"
                      "  - {letter: v, name: Noosa, region: Coast, number: 4, icons: [Surfing]}\n"
                      "categories: [{key: surf, title: Surf, description: Surfing., "
                      "score: \"count('Surfing', cards)\"}]\n")
    assert load_edition(valued).cards[0].letter == "s"
    path = rule(tmp_path, "borrow:\n  - from: valued.yaml\n", "kinds.yaml")
    assert [e[3] for e in errors(path)] == ["the family 'activity' is a list of kinds (icons without values) here "
                                            "but valued (icons with values) in valued.yaml"]


def test_a_borrowed_line_must_not_read_what_is_not_borrowed(tmp_path):
    path = rule(tmp_path, "borrow:\n  - from: usa\n    letters: auto\n    races: [coast_to_coast]\n")
    assert [e[:4] for e in errors(path)] == [
        ("X810", 6, 13, "the race 'coast_to_coast' of usa reads the card set 'east_coast', which is not borrowed"),
        ("X810", 6, 13, "the race 'coast_to_coast' of usa reads the card set 'west_coast', which is not borrowed"),
    ]
    other = tmp_path / "france.yaml"
    other.write_text(f"extends: {EDITIONS / 'europe.yaml'}\nid: france\ncategories:\n  - key: france\n"
                     "    title: France\n    description: 5 points for France.\n"
                     "    score: \"if 'W' in cards then 5 else 0\"\n")
    path = rule(tmp_path, "borrow:\n  - from: france.yaml\n    letters: auto\n    categories: [france]\n",
                "relettered.yaml")
    assert [e[3] for e in errors(path)] == ["the category 'france' of france.yaml names the card 'W', lettered 'w' "
                                            "here"]
    path = rule(tmp_path, "borrow:\n  - from: france.yaml\n    cards: [A]\n    letters: auto\n"
                          "    categories: [france]\n", "not-taken.yaml")
    assert [e[3] for e in errors(path)] == ["the category 'france' of france.yaml names the card 'W', which is "
                                            "not borrowed"]


def test_a_whole_edition_may_borrow_too(tmp_path):
    path = tmp_path / "whole.yaml"
    path.write_text(f"format: 1\nid: whole\nname: Europe again\nborrow:\n  - from: {EDITIONS / 'europe.yaml'}\n"
                    "    categories: [throw_catch, cuisine]\nplayers: {min: 2, max: 4}\nrounds: 4\nhand_size: 7\n"
                    "passing: {directions: [left]}\n", encoding="utf-8")
    edition = load_edition(path)
    assert [c.letter for c in edition.cards] == list(EUROPE_LETTERS)
    assert [c.key for c in edition.categories] == ["throw_catch", "cuisine"] and edition.races == ()


def test_a_cycle_and_a_missing_edition_are_errors_at_from(tmp_path):
    path = rule(tmp_path, "borrow:\n  - from: rule.yaml\n")
    assert [e[:4] for e in errors(path)] == [("X802", 4, 11, "'borrow' makes a cycle: rule.yaml -> rule.yaml")]
    path = rule(tmp_path, "borrow:\n  - from: europ\n")
    [(code, line, col, _, hint, _)] = errors(path)
    assert (code, line, col, hint) == ("X804", 4, 11, "did you mean 'europe'?")


def test_the_terminal_tells_a_from_A(mixed, tmp_path):
    """A human in the mixed deck types Europe's cards in lower case and Australia's in upper case, and
    plays the very game a script plays taking the same cards."""
    seed, typed, both = 4, [], []

    class Scripted:
        def decide(self, view, decision):
            icons = [o for o in decision.options if o is not None]
            answer = icons[0] if decision.kind == "choice" and icons else decision.options[-1]
            if decision.kind != "choice" and answer.upper() != answer and answer.upper() in decision.options:
                both.append(answer)  # the hand holds a and A: typing a must take a
            typed.append("none" if answer is None else answer)
            return answer

    agents = [Scripted()] + [make_bot("random", mixed, agent_seed(seed, s)) for s in (1, 2)]
    game = play(Game(mixed, ["Ana", "Ben", "Cy"], seed), agents)
    assert both and any(x.isupper() for x in typed)
    record = tmp_path / "game.json"
    result = CliRunner().invoke(main, ["run", str(PATH), "-p", "3", "--seed", str(seed), "--seat", "human",
                                       "--save-record", str(record)],
                                input="\n".join(typed) + "\n", catch_exceptions=False)
    assert result.exit_code == 0, result.output[-2000:]
    assert json.loads(record.read_text()) == game.record()


def test_the_variant_plays_and_its_log_replays(tmp_path):
    log = tmp_path / "g.jsonl"
    result = CliRunner().invoke(main, ["run", str(PATH), "-p", "8", "--seed", "5", "-q", "--log", str(log),
                                       "--seats", "greedy,random,random,random,random,random,random,greedy"])
    assert result.exit_code == 0, result.output
    replayed = CliRunner().invoke(main, ["replay", str(log), "--verify"])
    assert replayed.exit_code == 0 and "replay identically" in replayed.output, replayed.output
    header = json.loads(log.read_text().splitlines()[0])
    assert header["edition_id"] == "australia-europe"


def test_the_language_server_reads_a_borrow_where_it_is_written():
    """Hover on `letters:` is the borrow's, not a card's; a borrowed category's key goes to Europe's entry."""
    from rulesengine.lsp.analysis import Analysis

    text = PATH.read_text(encoding="utf-8")
    lines = text.splitlines()
    analysis = Analysis(str(PATH), text)
    row = next(i for i, line in enumerate(lines) if line.strip() == "letters: auto") + 1
    assert analysis.hover(row, 6).startswith("**Letters here**\n\nThe borrowed cards' letters in this edition")
    row = next(i for i, line in enumerate(lines) if line.strip() == "- key: treasures") + 1
    span = analysis.definition(row, 12)
    europe = (EDITIONS / "europe.yaml").read_text(encoding="utf-8").splitlines()
    assert Path(span.file).resolve() == (EDITIONS / "europe.yaml").resolve()
    assert (span.line, span.col) == (next(i for i, line in enumerate(europe) if line.strip() == "- key: treasures") + 1,
                                     10)


def test_an_edition_with_structural_mistakes_lends_nothing_and_its_mistakes_are_shown_in_it(tmp_path):
    other = tmp_path / "broken.yaml"
    other.write_text("format: 1\nid: broken\nname: Broken\nplayers: {min: 2, max: 2}\nrounds: 1\nhand_size: 2\n"
                     "passing: {directions: [left]}\nfamilies: {f: {title: F, icons: [X, [Y]]}}\n"
                     "regions: [{name: R, bonus: 1}]\ncards:\n"
                     "  - {letter: a, name: A, region: [R], number: 1, icons: [X]}\n"
                     "  - {letter: b, name: B, region: R, number: 1, icons: [X]}\n"
                     "categories: [{key: k, title: K, description: d, score: '1'}]\n", encoding="utf-8")
    _, diagnostics = check_edition(rule(tmp_path, "borrow:\n  - from: broken.yaml\n"))
    assert [(Path(d.span.file).name, d.span.line, d.code, d.message) for d in diagnostics] == [
        ("broken.yaml", 8, "S103", "families.f.icons[1] must be a text, not a list"),
        ("broken.yaml", 11, "S103", "'region' of the card 'a' must be a text, not a list"),
    ]
