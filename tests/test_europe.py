"""Boomerang: Europe through its YAML edition only: the deck against the reference data, the
rulebook and DESIGN.md examples scored from real records, Passport and region races with ties,
rejected National Treasure choices, and `boom validate`.

The deck (tests/reference/europe-deck.csv), as used to hand-compute the numbers below:

    letter number region        icons             letter number region    icons
    A  2  Nordic         Beer, Plane              O  5  Central   Natural Wonders, Train
    B  5  Nordic         Art, Bicycle             P  1  Central   Music, Beer
    C  3  Nordic         Natural Wonders, Boat    Q  5  Eastern   Music, Bicycle
    D  6  Nordic         Music, Car               R  7  Eastern   Music, Beer
    E  1  Nordic         Natural Wonders, Cheese  S  6  Eastern   Architecture, Cheese
    F  5  Baltic         Architecture, Train      T  2  Eastern   Architecture, Car
    G  4  Baltic         Architecture, Bicycle    U  4  Southern  Wine, Plane
    H  6  Baltic         Art, Cheese              V  4  Southern  Music, Train
    I  6  British Isles  Natural Wonders, Spirits W  1  Southern  Art, Wine
    J  3  British Isles  Art, Train               X  7  Southern  Art, Car
    K  2  Benelux        Music, Beer              Y  2  Southern  Natural Wonders, Bicycle
    L  4  Benelux        Art, Boat                Z  3  Southern  Natural Wonders, Car
    M  1  Benelux        Wine, Car                @  3  Southern  Architecture, Cheese
    N  7  Central        Beer, Train              #  7  Southern  Architecture, Boat

Art is on B, H, J, L, W, X; Music on D, K, P, Q, R, V; Architecture on F, G, S, T, @, #.
Cards without a cuisine icon: B C D F G J L O Q T V X Y Z #; without transport: E H I K P R S W @.
A passport needs one card of each region: A-E, F-H, I-J, K-M, N-P, Q-T, U-#.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from cli.main import main
from rulesengine import Game, RecordError, load_edition, load_record, score_record

ROOT = Path(__file__).resolve().parent.parent
EUROPE = ROOT / "editions" / "europe.yaml"
REFERENCE = Path(__file__).resolve().parent / "reference"
NAMES = ["Ana", "Ben", "Cy", "Dee"]
EXPECTED_RECONSTRUCTED = 103  # 100 card fields + 3 region bonuses, see test_reconstructed_fact_count


@pytest.fixture(scope="module")
def europe():
    return load_edition(EUROPE)


def read_csv(name):
    with open(REFERENCE / name, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def provenance(row) -> dict:
    return dict(part.split(":") for part in row["provenance"].split(";"))


def reconstructed_fields(row) -> tuple:
    """The edition's field names (icon_N covers icon_N_family + icon_N) that the CSV marks reconstructed."""
    prov = provenance(row)
    fields = [f for f in ("letter", "name", "region", "number") if prov[f] == "reconstructed"]
    for n in (1, 2):
        if "reconstructed" in (prov[f"icon_{n}_family"], prov[f"icon_{n}"]):
            fields.append(f"icon_{n}")
    return tuple(fields)


# -- records ---------------------------------------------------------------------------------------
def quoted(letters: str) -> str:
    return "[" + ", ".join(f"'{letter}'" for letter in letters) + "]"


def record_text(players, rounds) -> str:
    """rounds: a list of 1-4 rounds, each {player: 'LETTERS'} or ({player: 'LETTERS'}, {player: treasure});
    the last round given is repeated (without choices) up to the 4 rounds of the edition."""
    rounds = [r if isinstance(r, tuple) else (r, {}) for r in rounds]
    while len(rounds) < 4:
        rounds.append((rounds[-1][0], {}))
    lines = [f"players: [{', '.join(players)}]", "rounds:"]
    for drafts, choices in rounds:
        lines.append("  - drafts:")
        lines += [f"      {name}: {quoted(drafts[name])}" for name in players]
        if choices:
            lines.append("    choices:")
            lines += [f"      {name}: {{treasures: {kind}}}" for name, kind in choices.items()]
    return "\n".join(lines) + "\n"


def score(edition, tmp_path, players, rounds):
    path = tmp_path / "game.yaml"
    path.write_text(record_text(players, rounds), encoding="utf-8")
    record, source_map = load_record(path)
    return score_record(edition, record, source_map)


def points(sheet, player, key, round_number=1):
    seat = next(p for p in sheet["players"] if p["name"] == player)
    return seat["rounds"][round_number - 1][key]


def per_round(sheet, player, key):
    seat = next(p for p in sheet["players"] if p["name"] == player)
    return [r[key] for r in seat["rounds"]]


# -- 1. the edition is the reference data ------------------------------------------------------
def test_cards_match_europe_deck_csv(europe):
    rows = read_csv("europe-deck.csv")
    assert len(rows) == len(europe.cards) == 28
    for row, card in zip(rows, europe.cards, strict=True):
        assert (card.letter, card.name, card.region.name, card.number, list(card.icons)) == (
            row["letter"],
            row["name"],
            row["region"],
            int(row["number"]),
            [row["icon_1"], row["icon_2"]],
        )
        for n in (1, 2):  # each icon belongs to the family the CSV names
            assert row[f"icon_{n}"] in europe.families[row[f"icon_{n}_family"]].icon_set
        assert card.reconstructed == reconstructed_fields(row), card.letter
    # France is the one fully published card (the rulebook's card example)
    assert europe.card("W").name == "France" and europe.card("W").reconstructed == ()


def test_regions_match_europe_regions_csv(europe):
    rows = read_csv("europe-regions.csv")
    raw = yaml.safe_load(EUROPE.read_text(encoding="utf-8"))["regions"]
    assert [r.name for r in europe.regions] == [row["region_name_used_here"] for row in rows]
    for row, region, spec in zip(rows, europe.regions, raw, strict=True):
        assert region.bonus == int(row["region_bonus"])
        assert [c.letter for c in region.cards] == row["deck_letters"].split(";")
        assert len(region.cards) == int(row["cards_in_region"])
        expected = ["bonus"] if row["bonus_provenance"] == "reconstructed" else []
        assert spec.get("reconstructed", []) == expected, region.name


def test_reconstructed_fact_count(europe):
    card_facts = sum(len(reconstructed_fields(row)) for row in read_csv("europe-deck.csv"))
    region_facts = sum(row["bonus_provenance"] == "reconstructed" for row in read_csv("europe-regions.csv"))
    assert (card_facts, region_facts) == (100, 3)
    assert europe.reconstructed_facts == card_facts + region_facts == EXPECTED_RECONSTRUCTED


def test_edition_shape(europe):
    assert (europe.id, europe.players_min, europe.players_max, europe.rounds, europe.hand_size) == (
        "europe",
        2,
        4,
        4,
        7,
    )
    assert europe.passing.directions == ("left",) and europe.passing.catch == "same"
    assert europe.families["cuisine"].values == {"Beer": 1, "Cheese": 2, "Wine": 3, "Spirits": 5}
    assert europe.families["transport"].values == {"Car": 3, "Train": 4, "Bicycle": 5, "Boat": 7, "Plane": 9}
    assert europe.families["national_treasure"].icons == ("Art", "Architecture", "Music", "Natural Wonders")
    assert europe.sheet_keys == ("throw_catch", "cuisine", "transport", "treasures", "sites", "regions", "passport")
    assert europe.tie_breaks == ("passport", "throw_catch")


# -- 2. DESIGN.md and rulebook examples, from records -----------------------------------------
def test_throw_and_catch_4_and_1_is_3(europe, tmp_path):
    # Ana throws L (4) and catches W (1): |4 - 1| = 3. Ben throws M (1) and catches U (4): 3 too.
    sheet = score(europe, tmp_path, ["Ana", "Ben"], [{"Ana": "LBCDFGW", "Ben": "MHIJKNU"}])
    assert points(sheet, "Ana", "throw_catch") == 3
    assert points(sheet, "Ben", "throw_catch") == 3


def test_cuisine_examples(europe, tmp_path):
    # Ana: Beer A, K, N (1 + 1 + 1) + Cheese E (2) = 5 (B, C, D have no cuisine) -> 5.
    # Ben: Wine M, U (3 + 3) + Spirits I (5) = 11 (F, G, J, L have none) -> 8 or more: 11 halved, rounded up = 6.
    sheet = score(europe, tmp_path, ["Ana", "Ben"], [{"Ana": "AKNEBCD", "Ben": "MUIFGJL"}])
    assert points(sheet, "Ana", "cuisine") == 5
    assert points(sheet, "Ben", "cuisine") == 6


def test_cuisine_rulebook_sheet_and_edges(europe, tmp_path):
    # Ana: Spirits I 5 + Wine M, U, W 9 + Cheese E 2 = 16 -> 8 (the rulebook sheet's round 1; B, C none).
    # Ben: Beer A, K (2) + Cheese H, S (4) = 6 -> 6 (the sheet's round 2; D, F, G none).
    # Cy: Cheese @ 2 + Beer N, P, R 3 = 5 -> 5 (J, L, O none).
    sheet = score(europe, tmp_path, ["Ana", "Ben", "Cy"], [{"Ana": "IMUWEBC", "Ben": "AKHSDFG", "Cy": "@NPRJLO"}])
    assert [points(sheet, p, "cuisine") for p in ("Ana", "Ben", "Cy")] == [8, 6, 5]
    # the edge: 7 is scored as is, 8 is halved. I 5 + E 2 = 7 -> 7; I 5 + M 3 = 8 -> 4.
    sheet = score(
        europe, tmp_path, ["Ana", "Ben"], [{"Ana": "IEBCDFG", "Ben": "JLOQTVX"}, {"Ana": "IMBCDFG", "Ben": "JLOQTVX"}]
    )
    assert per_round(sheet, "Ana", "cuisine")[:2] == [7, 4]
    assert per_round(sheet, "Ben", "cuisine")[:2] == [0, 0]


def test_transport_rulebook_examples(europe, tmp_path):
    # Ana: Trains F, J = one pair -> 4 (E, H, I, K, P have no transport).
    # Ben: Cars D, M -> 3, Boats C, L -> 7: 10 (R, S, W have no transport).
    # Cy: Cars T, X, Z = three of a kind, one pair -> 3; Bicycle Q, Y -> 5; Plane A alone -> 0: 8.
    sheet = score(europe, tmp_path, ["Ana", "Ben", "Cy"], [{"Ana": "FJEHIKP", "Ben": "DMCLRSW", "Cy": "TXZQYA@"}])
    assert [points(sheet, p, "transport") for p in ("Ana", "Ben", "Cy")] == [4, 10, 8]


# Ana holds W (Art) in each deal, and L and X too (her own Art icons never count); the other seats
# hold exactly the three other Art cards B, H and J. So Ana scores 3 x 4 / 3 / 2.
TREASURE_DEALS = {
    2: {"Ana": "WLXACDE", "Ben": "BHJFGIK"},
    3: {"Ana": "WLXACDE", "Ben": "BHFGIKM", "Cy": "JNOPQRS"},
    4: {"Ana": "WLXACDE", "Ben": "BFGIKMN", "Cy": "HOPQRST", "Dee": "JUVYZ@#"},  # the whole deck
}


@pytest.mark.parametrize("players, expected", [(2, 12), (3, 9), (4, 6)])
def test_treasures_three_art_icons_on_other_seats(europe, tmp_path, players, expected):
    sheet = score(europe, tmp_path, NAMES[:players], [(TREASURE_DEALS[players], {"Ana": "Art"})])
    assert points(sheet, "Ana", "treasures") == expected
    assert per_round(sheet, "Ana", "treasures")[1:] == [0, 0, 0]  # no choice in the later rounds
    for other in NAMES[1:players]:
        assert points(sheet, other, "treasures") == 0  # scoring a treasure is optional


def test_treasures_rulebook_sheet_four_players(europe, tmp_path):
    # Round 1: Ana scores Music (own: D); other Music icons are K, P only (Q, R, V with Ana): 2 x 2 = 4.
    # Round 2: Ana scores Architecture (own: F, #); the others hold G, S, T, @: 4 x 2 = 8.
    # Each round deals the whole deck.
    round_1 = {"Ana": "DQRVABC", "Ben": "KEFGHIJ", "Cy": "PLMNOST", "Dee": "UWXYZ@#"}
    round_2 = {"Ana": "FABCDE#", "Ben": "GHIJKLM", "Cy": "NOPQRST", "Dee": "UVWXYZ@"}
    sheet = score(europe, tmp_path, NAMES, [(round_1, {"Ana": "Music"}), (round_2, {"Ana": "Architecture"})])
    assert per_round(sheet, "Ana", "treasures") == [4, 8, 0, 0]


# -- 3. races: Passport and region bonuses, ties ----------------------------------------------
PASSPORT_1 = "AFIKNQU"  # one card of each region
PASSPORT_2 = "BGJLORV"  # another one, disjoint from PASSPORT_1

PASSPORT_GAMES = [
    # 2 players, both qualify in round 1: both take the highest award, 7.
    ({"Ana": [7, 0, 0, 0], "Ben": [7, 0, 0, 0]}, [{"Ana": PASSPORT_1, "Ben": PASSPORT_2}]),
    # 2 players, Ana in round 1 (7); Ben lacks the British Isles until J in round 2 (3).
    (
        {"Ana": [7, 0, 0, 0], "Ben": [0, 3, 0, 0]},
        [{"Ana": PASSPORT_1, "Ben": "BGLORVW"}, {"Ana": PASSPORT_1, "Ben": "JBGLORV"}],
    ),
    # 3 players, Ana and Ben tie in round 1 (7 each); Cy (no British Isles, no Southern card in
    # round 1) gets I and U in round 2: the next award, 3.
    (
        {"Ana": [7, 0, 0, 0], "Ben": [7, 0, 0, 0], "Cy": [0, 3, 0, 0]},
        [
            {"Ana": PASSPORT_1, "Ben": PASSPORT_2, "Cy": "CDEHMPS"},
            {"Ana": "JNOPQRS", "Ben": "VWXYZ@#", "Cy": "IUCDEHM"},
        ],
    ),
    # 3 players, one a round: 7, 3, then 1 (a 3-player game has the third award).
    (
        {"Ana": [7, 0, 0, 0], "Ben": [0, 3, 0, 0], "Cy": [0, 0, 1, 0]},
        [
            {"Ana": PASSPORT_1, "Ben": "BGLORVW", "Cy": "CDEHMPS"},
            {"Ana": PASSPORT_1, "Ben": "JBGLORV", "Cy": "CDEHMPS"},
            {"Ana": "JNOPQRS", "Ben": "VWXYZ@#", "Cy": "IUCDEHM"},
        ],
    ),
    # 4 players (the whole deck each round): Ana and Ben tie in round 1 (7 each); neither Cy nor Dee
    # has a British Isles card yet. Round 2: Cy gets I (and U) -> 3; Dee still lacks I/J. Round 3: Dee gets I -> 1.
    (
        {"Ana": [7, 0, 0, 0], "Ben": [7, 0, 0, 0], "Cy": [0, 3, 0, 0], "Dee": [0, 0, 1, 0]},
        [
            {"Ana": PASSPORT_1, "Ben": PASSPORT_2, "Cy": "CDEHMPS", "Dee": "TWXYZ@#"},
            {"Ana": "JOPQRST", "Ben": "VWXYZ@#", "Cy": "IUABFGK", "Dee": "CDEHLMN"},
            {"Ana": "FGHKLMN", "Ben": "OPQRSTU", "Cy": "VWXYZ@#", "Dee": "IJABCDE"},
        ],
    ),
]


@pytest.mark.parametrize(
    "expected, rounds", PASSPORT_GAMES, ids=["2p-tie", "2p-7-3", "3p-tie-then-3", "3p-7-3-1", "4p-tie-3-1"]
)
def test_passport_places_and_ties(europe, tmp_path, expected, rounds):
    sheet = score(europe, tmp_path, list(expected), rounds)
    assert {name: per_round(sheet, name, "passport") for name in expected} == expected
    for player in sheet["players"]:
        assert player["categories"]["passport"] == sum(expected[player["name"]])


def test_passport_third_award_only_with_three_or_four_players(europe):
    # With 2 seats a third place cannot happen in a game; the award expression still says so.
    passport = next(r for r in europe.races if r.key == "passport")
    award = {
        (place, players): passport.award.run({"place": place, "players": players, "round": 3})
        for place in (1, 2, 3, 4)
        for players in (2, 3, 4)
    }
    assert award == {
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
        (4, 3): 0,
        (4, 4): 0,
    }


def test_region_bonus_ties_and_closing(europe, tmp_path):
    # Benelux is K, L, M (bonus 3, published). No seat completes any other region in these rounds:
    # they hold at most 2 of the 3 Baltic cards, 2 of the 5 Nordic ones, 2 of the 4 Eastern ones,
    # no British Isles pair and no Central trio.
    rounds = [
        # round 1: Ana has K, L; Ben has M; nothing complete.
        {"Ana": "KLABQUV", "Ben": "MCDRWXY", "Cy": "ESTZ@#F"},
        # round 2: Ana adds M, Ben adds K and L: both complete Benelux in the same round -> 3 each.
        {"Ana": "MABQUVG", "Ben": "KLCDRWX", "Cy": "ESTZ@#F"},
        # round 3: Cy completes Benelux later: the bonus is closed -> 0.
        {"Ana": "ABQUVGH", "Ben": "CDRWXYN", "Cy": "KLMESTZ"},
    ]
    sheet = score(europe, tmp_path, ["Ana", "Ben", "Cy"], rounds)  # round 4 repeats round 3
    assert per_round(sheet, "Ana", "regions") == [0, 3, 0, 0]
    assert per_round(sheet, "Ben", "regions") == [0, 3, 0, 0]
    assert per_round(sheet, "Cy", "regions") == [0, 0, 0, 0]


def test_region_bonus_is_the_regions_own(europe, tmp_path):
    # Both seats finish the British Isles (bonus 2, reconstructed) in round 2: Ana has I then J, Ben
    # J then I. In round 3 Ana finishes Southern (5: U-Y in rounds 1-2, then Z, @, #) and Ben finishes
    # Baltic (3: F, G, then H). Neither finishes Nordic (Ana: A-D, Ben: B-E), Benelux or Central.
    rounds = [
        {"Ana": "IUVWXYA", "Ben": "JBCDEFG"},
        {"Ana": "JUVWXYA", "Ben": "IBCDEFG"},
        {"Ana": "Z@#ABCD", "Ben": "EFGHKLN"},
    ]
    sheet = score(europe, tmp_path, ["Ana", "Ben"], rounds)  # round 4 repeats round 3
    assert per_round(sheet, "Ana", "regions") == [0, 2, 5, 0]
    assert per_round(sheet, "Ben", "regions") == [0, 2, 3, 0]


# -- 4. rejected treasure choices ----------------------------------------------------------------
def test_treasure_without_an_own_icon_is_rejected(europe, tmp_path):
    # Round 2: Ben's cards M, U, I, F, G, J, L have Architecture, Art and Natural Wonders, no Music.
    rounds = [{"Ana": "AKNEBCD", "Ben": "MUIFGJL"}, ({"Ana": "AKNEBCD", "Ben": "MUIFGJL"}, {"Ben": "Music"})]
    text = record_text(["Ana", "Ben"], rounds)
    with pytest.raises(RecordError) as caught:
        score(europe, tmp_path, ["Ana", "Ben"], rounds)
    [diagnostic] = caught.value.diagnostics
    message = diagnostic.message
    assert message.startswith("round 2, Ben: ")
    assert (
        "'Music' cannot be chosen for National Treasures this round: it may be chosen only when the number "
        "of Music on your cards this round is at least 1" in message
    )
    assert diagnostic.span.line == text.splitlines().index("      Ben: {treasures: Music}") + 1


def test_treasure_kind_twice_in_a_game_is_rejected(europe, tmp_path):
    # Ana holds B (Art) every round; Art in round 1 is fine, Art again in round 3 is not.
    deal = {"Ana": "AKNEBCD", "Ben": "MUIFGJL"}
    rounds = [(deal, {"Ana": "Art"}), (deal, {"Ana": "Natural Wonders"}), (deal, {"Ana": "Art"})]
    with pytest.raises(RecordError) as caught:
        score(europe, tmp_path, ["Ana", "Ben"], rounds)
    [diagnostic] = caught.value.diagnostics
    assert diagnostic.message.startswith("round 3, Ana: ")
    assert "'Art' was already scored for treasures" in diagnostic.message


def test_a_played_game_offers_only_legal_treasures_and_rescores_the_same(europe, tmp_path):
    game = Game(europe, NAMES[:3], seed=5)
    used = {seat: set() for seat in range(3)}
    while game.pending():
        for decision in game.pending():
            if decision.kind == "choice":
                held = {icon for card in game.places.drafts[decision.seat] for icon in card.icons}
                legal = [o for o in decision.options if o is not None]
                assert set(legal) <= held - used[decision.seat]
                answer = legal[0] if legal else None
                if answer is not None:
                    used[decision.seat].add(answer)
                game.apply(decision.seat, answer, decision.category)
            else:
                game.apply(decision.seat, decision.options[0])
    assert game.over
    path = tmp_path / "played.yaml"
    path.write_text(yaml.safe_dump(game.record(), sort_keys=False, allow_unicode=True), encoding="utf-8")
    record, source_map = load_record(path)
    assert score_record(europe, record, source_map) == game.scores.sheet()


# -- 5. the command line ---------------------------------------------------------------------------
def test_boom_validate_reports_the_reconstructed_facts():
    result = CliRunner().invoke(main, ["validate", str(EUROPE)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert result.output.strip() == (
        f"{EUROPE}: ok: Boomerang: Europe, 28 cards, 5 categories, 2 races, "
        f"{EXPECTED_RECONSTRUCTED} reconstructed facts"
    )
