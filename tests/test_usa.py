"""Boomerang: USA through the YAML edition only: the data against the reference CSVs, the rulebook
examples of DESIGN.md, the coast-to-coast race and the `boom validate` summary.

Card facts used below (tests/reference/usa-deck.csv; numbers are per region):
  West Coast A B C D = 4, Mountain West E F G H = 5, Southwest I J K L = 3, Midwest M N O P = 1,
  Southeast Q R S T = 2, Mid-Atlantic U V W X = 6, Northeast Y Z @ # = 7.
  Americana: A 3, I 2, J 1, L 3, O 2, Q 3, R 1, T 1, U 2, V 2, W 5, Y 1, @ 1 (Football jersey 3,
  Baseball cap 2, Mail box 1, US flag 5); no other card has one.
  Hiking: G I M N S W; Sporting events: D E P Q U #.
"""

from __future__ import annotations

import csv
from collections import deque
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from cli.main import main
from rulesengine import load_edition, load_record, score_record

ROOT = Path(__file__).resolve().parent.parent
USA = ROOT / "editions" / "usa.yaml"
AT_LEAST = ROOT / "editions" / "variants" / "usa-americana-at-least.yaml"
REFERENCE = Path(__file__).resolve().parent / "reference"
FIELDS = ("letter", "name", "region", "number", "icon_1", "icon_2")


def read_csv(name):
    with open(REFERENCE / name, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def usa():
    return load_edition(USA)


@pytest.fixture(scope="module")
def at_least():
    return load_edition(AT_LEAST)


# -- records ---------------------------------------------------------------------------------------
def quoted(letters: str) -> str:
    return "[" + ", ".join(f"'{letter}'" for letter in letters) + "]"


def play_record(tmp_path, edition, rounds, players=("Ana", "Ben"), choices=None):
    """Score a record written as YAML text. rounds: one {player: 'ABCDEFG'} per round (each letter
    one card, Throw first, Catch last); a player left out takes the first 7 cards of the deck that
    nobody has this round. choices: {round index: {player: activity}}. Returns the sheet."""
    deck = [card.letter for card in edition.cards]
    lines = [f"players: [{', '.join(players)}]", "rounds:"]
    for index, drafts in enumerate(rounds):
        drafts = dict(drafts)
        for name in players:
            if name not in drafts:
                taken = set("".join(drafts.values()))
                drafts[name] = "".join([c for c in deck if c not in taken][:7])
        lines.append("  - drafts:")
        lines += [f"      {name}: {quoted(drafts[name])}" for name in players]
        picked = (choices or {}).get(index)
        if picked:
            lines.append("    choices:")
            lines += [f"      {name}: {{activities: {icon}}}" for name, icon in picked.items()]
    path = tmp_path / f"record-{len(list(tmp_path.iterdir()))}.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    record, source_map = load_record(path)
    return score_record(edition, record, source_map)


def per_round(sheet, name, key):
    player = next(p for p in sheet["players"] if p["name"] == name)
    return [points[key] for points in player["rounds"]]


def total(sheet, name, key):
    return next(p for p in sheet["players"] if p["name"] == name)["categories"][key]


# -- 1. the data ---------------------------------------------------------------------------------
def test_cards_match_the_reference_deck(usa):
    rows = read_csv("usa-deck.csv")
    assert len(rows) == len(usa.cards) == 28
    for row, card in zip(rows, usa.cards, strict=True):
        assert (card.letter, card.name, card.region.name, card.number, list(card.icons)) == (
            row["letter"],
            row["name"],
            row["region"],
            int(row["number"]),
            [row["icon_1"], row["icon_2"]],
        )
        for n in (1, 2):  # the icon's family is that of the reference row
            family = next(key for key, f in usa.families.items() if row[f"icon_{n}"] in f.icon_set)
            assert family == row[f"icon_{n}_family"]
        provenance = dict(item.split(":") for item in row["provenance"].split(";"))
        expected = [f for f in ("letter", "name", "region", "number") if provenance[f] == "reconstructed"]
        expected += [
            f"icon_{n}" for n in (1, 2) if "reconstructed" in (provenance[f"icon_{n}"], provenance[f"icon_{n}_family"])
        ]
        assert list(card.reconstructed) == expected, card.letter
    assert [card.letter for card in usa.cards if not card.reconstructed] == ["P"]  # St. Louis


def test_regions_families_and_table(usa):
    assert [(r.name, r.bonus) for r in usa.regions] == list(
        dict.fromkeys((row["region"], 3) for row in read_csv("usa-deck.csv"))
    )
    assert all(len(region.cards) == 4 for region in usa.regions)
    assert usa.families["americana"].values == {"Mail box": 1, "Baseball cap": 2, "Football jersey": 3, "US flag": 5}
    assert usa.families["animal"].values == {"Trout": 3, "Cattle": 4, "Grizzly": 5, "Bald eagle": 7, "Bigfoot": 9}
    assert usa.families["activity"].icons == ("Sightseeing", "Sporting events", "Hiking", "Dining")
    assert usa.tables["activity_points"].rows == {1: 0, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}
    assert (usa.players_min, usa.players_max, usa.rounds, usa.hand_size) == (2, 4, 4, 7)
    assert usa.tie_breaks == ("coast_to_coast", "throw_catch")
    assert usa.sheet_keys == ("throw_catch", "americana", "animals", "activities", "sites", "regions", "coast_to_coast")


def test_map_and_coasts_match_the_reference(usa):
    rows = read_csv("usa-map.csv")
    assert len(rows) == 33
    expected = {frozenset((row["town_a"], row["town_b"])) for row in rows}
    edges = {frozenset((a.letter, b.letter)) for a, neighbours in usa.paths.items() for b in neighbours}
    assert edges == expected
    assert sum(len(neighbours) for neighbours in usa.paths.values()) == 2 * 33  # no duplicates
    towns = read_csv("usa-towns.csv")
    for name, coast in (("west_coast", "west"), ("east_coast", "east")):
        assert [c.letter for c in usa.card_sets[name]] == [t["letter"] for t in towns if t["coast"] == coast]
    assert [c.letter for c in usa.card_sets["west_coast"]] == list("ABCD")
    assert [c.letter for c in usa.card_sets["east_coast"]] == list("TXZ@#")
    for town in towns:
        assert usa.card(town["letter"]).region.name == town["region"]


def test_the_variant_differs_only_in_americana(usa, at_least):
    assert at_least.id == "usa-americana-at-least"
    assert [(c.letter, c.name, c.region.name, c.number, c.icons, c.reconstructed) for c in at_least.cards] == [
        (c.letter, c.name, c.region.name, c.number, c.icons, c.reconstructed) for c in usa.cards
    ]

    def letters(edition):
        return (
            {(a.letter, b.letter) for a, ends in edition.paths.items() for b in ends},
            {name: [c.letter for c in cards] for name, cards in edition.card_sets.items()},
        )

    assert letters(at_least) == letters(usa)
    texts = {c.key: c.score.text for c in usa.categories}
    variant = {c.key: c.score.text for c in at_least.categories}
    assert {k for k in texts if texts[k] != variant[k]} == {"americana"}
    assert variant["americana"] == texts["americana"].replace("s > previous", "s >= previous")
    assert at_least.reconstructed_facts == usa.reconstructed_facts


# -- 2. the rulebook examples (DESIGN.md) -------------------------------------------------------
def test_throw_and_catch(tmp_path, usa):
    sheet = play_record(
        tmp_path,
        usa,
        [
            {"Ana": "ABCFGHE"},  # Throw A 4, Catch E 5 -> 4 (the rulebook's first example)
            {"Ana": "IJKLMNQ"},  # Throw I 3, Catch Q 2 -> 0 (the second example)
            {"Ana": "ABCEFGD"},  # Throw A 4, Catch D 4 -> 4 (equal is enough)
            {"Ana": "YZ@ABCM"},  # Throw Y 7, Catch M 1 -> 0
        ],
    )
    assert per_round(sheet, "Ana", "throw_catch") == [4, 0, 4, 0]
    assert total(sheet, "Ana", "throw_catch") == 8


# Americana sums, by hand:
#   round 1: W 5 + A 3       = 8  (B C D E F have none)
#   round 2: W 5 + I 2       = 7
#   round 3: A 3 + L 3 + J 1 = 7
#   round 4: W 5 + A 3 + L 3 + Q 3 = 14
# Strictly greater than the previous round's Americana score: 8 > 0 -> 8; 7 > 8 no -> 0;
# 7 > 0 -> 7; 14 > 7 -> 14: 8 + 0 + 7 + 14 = 29 (the rulebook's sheet).
AMERICANA_8_7_7_14 = [{"Ana": "WABCDEF"}, {"Ana": "WIBCDEF"}, {"Ana": "ALJBCDE"}, {"Ana": "WALQBCD"}]
# 8 every round: W 5 + A 3, or W 5 + L 3, or W 5 + Q 3.
AMERICANA_8_8_8_8 = [{"Ana": "WABCDEF"}, {"Ana": "WLBCDEF"}, {"Ana": "WQBCDEF"}, {"Ana": "WABCDEF"}]


def test_americana_rulebook_sheet(tmp_path, usa):
    sheet = play_record(tmp_path, usa, AMERICANA_8_7_7_14)
    assert per_round(sheet, "Ana", "americana") == [8, 0, 7, 14]
    assert total(sheet, "Ana", "americana") == 29


def test_americana_at_least_variant_same_sheet(tmp_path, at_least):
    # >= gives the same: 8 >= 0; 7 >= 8 no -> 0; 7 >= 0; 14 >= 7
    sheet = play_record(tmp_path, at_least, AMERICANA_8_7_7_14)
    assert per_round(sheet, "Ana", "americana") == [8, 0, 7, 14]
    assert total(sheet, "Ana", "americana") == 29


def test_americana_equal_sums_strict_versus_at_least(tmp_path, usa, at_least):
    # published rule (>): 8 > 0 -> 8; 8 > 8 no -> 0; 8 > 0 -> 8; 8 > 8 no -> 0
    strict = play_record(tmp_path, usa, AMERICANA_8_8_8_8)
    assert per_round(strict, "Ana", "americana") == [8, 0, 8, 0]
    assert total(strict, "Ana", "americana") == 16
    # variant (>=): 8 every round
    loose = play_record(tmp_path, at_least, AMERICANA_8_8_8_8)
    assert per_round(loose, "Ana", "americana") == [8, 8, 8, 8]
    assert total(loose, "Ana", "americana") == 32


def test_americana_after_ten_needs_eleven(tmp_path, usa):
    # the French rulebook's example: 10, then 10 scores 0, then any amount >= 1 scores again
    # 10 = W 5 + A 3 + I 2; 10 = W 5 + L 3 + O 2; 1 = J 1; 11 = W 5 + A 3 + L 3
    sheet = play_record(tmp_path, usa, [{"Ana": "WAIBCDE"}, {"Ana": "WLOBCDE"}, {"Ana": "JBCDEFG"}, {"Ana": "WALBCDE"}])
    assert per_round(sheet, "Ana", "americana") == [10, 0, 1, 11]


def test_animals_pairs(tmp_path, usa):
    # round 1: Trout K L (one pair) -> 3; round 2: Cattle B G + Grizzly C E -> 4 + 5 = 9
    # round 3: Trout K L N T (two pairs) -> 6; round 4: one Bigfoot (A), one of each else -> 0
    sheet = play_record(tmp_path, usa, [{"Ana": "KLIJOUV"}, {"Ana": "BGCEIJO"}, {"Ana": "KLNTIJO"}, {"Ana": "ABCDIJO"}])
    # round 4: A Bigfoot, B Cattle, C Grizzly, D Bald eagle: no pair
    assert per_round(sheet, "Ana", "animals") == [3, 9, 6, 0]


def test_activities_rulebook_example(tmp_path, usa):
    sheet = play_record(
        tmp_path,
        usa,
        [
            {"Ana": "GIMNSAB"},  # 5 Hiking (G I M N S) -> 10
            {"Ana": "DEPABCF", "Ben": "GIMJKLO"},  # Ana 3 Sporting events (D E P) -> 4; Ben 3 Hiking -> 4
            {"Ana": "GIMNSWA"},  # 6 Hiking, but Hiking was scored in round 1: no choice -> 0
            {"Ana": "ABCFJRX"},  # Dining: B F J R X = 5 -> 10
        ],
        choices={0: {"Ana": "Hiking"}, 1: {"Ana": "Sporting events", "Ben": "Hiking"}, 3: {"Ana": "Dining"}},
    )
    assert per_round(sheet, "Ana", "activities") == [10, 4, 0, 10]
    assert per_round(sheet, "Ben", "activities") == [0, 4, 0, 0]


def test_activity_used_twice_is_refused(tmp_path, usa):
    from rulesengine import RecordError

    with pytest.raises(RecordError, match="already scored"):
        play_record(
            tmp_path,
            usa,
            [{"Ana": "GIMNSAB"}, {"Ana": "GIMABCD"}, {}, {}],
            choices={0: {"Ana": "Hiking"}, 1: {"Ana": "Hiking"}},
        )


def test_sites_count_distinct_towns(tmp_path, usa):
    sheet = play_record(tmp_path, usa, [{"Ana": "ABCDEFG"}, {"Ana": "ABCDEFG"}, {"Ana": "ABCDEFH"}, {"Ana": "ABCDEFG"}])
    assert total(sheet, "Ana", "sites") == 8
    assert "sites" not in sheet["players"][0]["rounds"][0]


# -- 3. coast to coast ----------------------------------------------------------------------------
def shortest_chain(edition):
    """Fewest towns on a chain of paths from a west-coast to an east-coast town."""
    east = set(edition.card_sets["east_coast"])
    queue = deque((town, 1) for town in edition.card_sets["west_coast"])
    seen = set(edition.card_sets["west_coast"])
    while queue:
        town, length = queue.popleft()
        if town in east:
            return length
        for other in edition.paths.get(town, ()):
            if other not in seen:
                seen.add(other)
                queue.append((other, length + 1))
    return None


def test_no_chain_fits_in_one_round(usa):
    # e.g. A-E-M-N-O-U-V-Z or D-I-J-K-P-Q-S-T: 8 towns, more than a round's 7 cards
    assert shortest_chain(usa) == 8


def test_coast_to_coast_over_two_rounds(tmp_path, usa):
    # round 1: A E M N (west coast A, chain stops at N) + B C D: no chain -> 0
    # round 2: O U V Z: with round 1's towns, A-E-M-N-O-U-V-Z reaches the east coast -> 7
    sheet = play_record(tmp_path, usa, [{"Ana": "AEMNBCD"}, {"Ana": "OUVZBCD"}, {"Ana": "AEMNOUV"}, {"Ana": "ABCDEFG"}])
    assert per_round(sheet, "Ana", "coast_to_coast") == [0, 7, 0, 0]  # won once
    assert total(sheet, "Ana", "coast_to_coast") == 7
    # Ben (deck-order filler each round) takes the other cards and never crosses
    assert total(sheet, "Ben", "coast_to_coast") == 0


def test_coast_without_a_chain_scores_nothing(tmp_path, usa):
    # every coast town visited, but no path between visited towns joins them
    sheet = play_record(tmp_path, usa, [{"Ana": "ABCDTXZ"}, {"Ana": "@#ABCDT"}, {"Ana": "ABCDTXZ"}, {"Ana": "ABCDTXZ"}])
    assert total(sheet, "Ana", "coast_to_coast") == 0


# Four seats, all 28 cards dealt each round (visited towns accumulate):
#   Ana: D I J K, then P Q S T: D-I-J-K-P-Q-S-T in round 2.
#   Ben: C G H L R S T, then J K: C-G-H-J-K-L-R-S-T in round 2 (tied with Ana).
#   Cy:  A B E F P Q Z, I L R X Z @ #, then D J K S T: D-I-J-K-P-Q-S-T in round 3.
#   Dee: M N O U V W Y (no coast town) in rounds 1-3, then A E Z: A-E-M-N-O-U-V-Z in round 4.
COAST_RACE = [
    {"Ana": "DIJKX@#", "Ben": "CGHLRST", "Cy": "ABEFPQZ", "Dee": "MNOUVWY"},
    {"Ana": "PQSTCDG", "Ben": "JKABEFH", "Cy": "ILRXZ@#", "Dee": "MNOUVWY"},
    {"Ana": "CEFGHIL", "Ben": "PQRXZ@#", "Cy": "DJKSTAB", "Dee": "MNOUVWY"},
    {"Ana": "BCDFGHI", "Ben": "JKLPQRS", "Cy": "TX@#MNO", "Dee": "AEZUVWY"},
]


def race_rounds(players):
    return [{name: hand[name] for name in players} for hand in COAST_RACE]


def test_coast_to_coast_ties_and_places_four_players(tmp_path, usa):
    players = ("Ana", "Ben", "Cy", "Dee")
    sheet = play_record(tmp_path, usa, race_rounds(players), players=players)
    assert per_round(sheet, "Ana", "coast_to_coast") == [0, 7, 0, 0]  # same round: both 7
    assert per_round(sheet, "Ben", "coast_to_coast") == [0, 7, 0, 0]
    assert per_round(sheet, "Cy", "coast_to_coast") == [0, 0, 3, 0]  # next round: 3
    assert per_round(sheet, "Dee", "coast_to_coast") == [0, 0, 0, 1]  # later: 1 (4 players)


def test_coast_to_coast_three_players(tmp_path, usa):
    players = ("Ana", "Cy", "Dee")
    sheet = play_record(tmp_path, usa, race_rounds(players), players=players)
    assert [total(sheet, name, "coast_to_coast") for name in players] == [7, 3, 1]
    players = ("Ana", "Ben", "Dee")  # Ana and Ben share place 1, so Dee is second: 3
    sheet = play_record(tmp_path, usa, race_rounds(players), players=players)
    assert [total(sheet, name, "coast_to_coast") for name in players] == [7, 7, 3]


def test_coast_to_coast_two_players(tmp_path, usa):
    players = ("Cy", "Dee")
    sheet = play_record(tmp_path, usa, race_rounds(players), players=players)
    assert per_round(sheet, "Cy", "coast_to_coast") == [0, 0, 7, 0]
    assert per_round(sheet, "Dee", "coast_to_coast") == [0, 0, 0, 3]


def test_coast_to_coast_award_by_place_and_players(usa):
    # With 2 players no seat can reach a third place in play (each seat wins once, and each round
    # with a qualifier uses one place), so the "1 only with 3-4 players" rule is checked here
    # on the award expression itself.
    award = next(r for r in usa.races if r.key == "coast_to_coast").award
    table = {
        (place, players): award.run({"place": place, "players": players, "round": 4})
        for place in (1, 2, 3, 4)
        for players in (2, 3, 4)
    }
    assert table == {
        (1, 2): 7,
        (1, 3): 7,
        (1, 4): 7,
        (2, 2): 3,
        (2, 3): 3,
        (2, 4): 3,
        (3, 2): 0,
        (3, 3): 1,
        (3, 4): 1,
        (4, 2): 0,
        (4, 3): 1,
        (4, 4): 1,
    }


def test_region_bonus_first_only(tmp_path, usa):
    # Ana completes the Southwest (I J K L) in round 1: 3; Ben completes it in round 2: closed, 0
    # (Ben's round-1 filler D E F G H M N and I J K L M N O complete no other open region)
    sheet = play_record(tmp_path, usa, [{"Ana": "IJKLABC"}, {"Ben": "IJKLMNO"}, {}, {}])
    assert per_round(sheet, "Ana", "regions")[0] == 3
    assert per_round(sheet, "Ben", "regions")[1] == 0


# -- 4. the command line ---------------------------------------------------------------------------
def reconstructed_facts_in_csv():
    count = 0
    for row in read_csv("usa-deck.csv"):
        provenance = dict(item.split(":") for item in row["provenance"].split(";"))
        count += sum(provenance[f] == "reconstructed" for f in ("letter", "name", "region", "number"))
        count += sum("reconstructed" in (provenance[f"icon_{n}"], provenance[f"icon_{n}_family"]) for n in (1, 2))
    return count


def test_validate_reports_the_reconstructed_facts(usa):
    # 124 card fields, 31 traced paths (all but C-F and D-F) and 4 inferred coast towns (A, B, @, #)
    assert reconstructed_facts_in_csv() == 124
    assert usa.reconstructed_facts == 124 + 31 + 4
    result = CliRunner().invoke(main, ["validate", str(USA), str(AT_LEAST)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert f"{USA}: ok: Boomerang: USA, 28 cards, 5 categories, 2 races, 159 reconstructed facts" in result.output
    assert f"{AT_LEAST}: ok: " in result.output
    assert result.output.count("159 reconstructed facts") == 2


def test_the_map_provenance_is_data_and_agrees_with_the_reference():
    data = yaml.safe_load(USA.read_text(encoding="utf-8"))
    marks = data["map"]["reconstructed"]
    traced = [sorted((row["town_a"], row["town_b"])) for row in read_csv("usa-map.csv") if row["provenance"] != "read"]
    assert sorted(sorted(pair) for pair in marks["paths"]) == sorted(traced) and len(traced) == 31
    towns = read_csv("usa-towns.csv")
    inferred = {row["letter"] for row in towns if row["coast"] != "none" and row["letter_provenance"] == "inferred"}
    assert {letter for letters in marks["card_sets"].values() for letter in letters} == inferred == {"A", "B", "@", "#"}
    verbose = CliRunner().invoke(main, ["validate", "--verbose", str(USA)], catch_exceptions=False).output
    assert "and 31 map paths and 4 card set members (map.reconstructed)" in verbose
