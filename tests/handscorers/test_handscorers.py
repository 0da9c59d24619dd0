"""Rulebook examples (and a few whole games) checked on the hand scorers.

Every expected number below was worked out by hand from the card CSVs in tests/reference/; the
card facts used are written next to each record. Card numbers (Throw & Catch):
  Australia: A-D 1, E-H 4, I-L 6, M-P 3, Q-T 5, U-X 2, Y Z @ # 7.
  USA:       A-D 4, E-H 5, I-L 3, M-P 1, Q-T 2, U-X 6, Y Z @ # 7.
  Europe:    per card (europe-deck.csv), quoted where used.
"""

from . import australia, europe, usa

# ---- helpers -----------------------------------------------------------------------------------


def check_record(record, deck):
    """Guard the hand-built records: 4 rounds, 7 distinct known cards a seat, no card twice."""
    assert len(record["rounds"]) == 4
    for rnd in record["rounds"]:
        seen = []
        for name in record["players"]:
            cards = rnd["drafts"][name]
            assert len(cards) == 7 and len(set(cards)) == 7, (name, cards)
            assert all(letter in deck for letter in cards), cards
            seen.extend(cards)
        assert len(seen) == len(set(seen)), rnd["drafts"]


def game(players, rounds):
    """rounds: list of 4 (drafts, choices) pairs; drafts maps name -> string of 7 letters."""
    return {"players": players,
            "rounds": [{"drafts": {n: list(cards) for n, cards in drafts.items()}, "choices": choices}
                       for drafts, choices in rounds]}


def same_rounds(players, drafts, choices=None):
    """The same drafts every round; choices only in round 1."""
    return game(players, [(drafts, choices or {}), (drafts, {}), (drafts, {}), (drafts, {})])


def run(module, record):
    check_record(record, module.CARDS)
    result = module.score(record)
    # the shape of the sheet
    assert [p["name"] for p in result["players"]] == record["players"]
    for p in result["players"]:
        assert set(p["categories"]) == set(module.KEYS)
        assert len(p["rounds"]) == 4
        for r in p["rounds"]:
            assert set(r) == set(module.KEYS) - {"sites"}
        for key in module.KEYS:
            if key != "sites":
                assert p["categories"][key] == sum(r[key] for r in p["rounds"])
        assert p["total"] == sum(p["categories"].values())
    return {p["name"]: p for p in result["players"]}, result["winners"]


def per_round(sheet, key):
    return [r[key] for r in sheet["rounds"]]


# =================================================================================================
# Australia
# =================================================================================================

def test_australia_throw_catch():
    # Ana: Throw E (4), Catch A (1) -> |4-1| = 3.  Ben: Throw D (1), Catch H (4) -> 3 as well.
    record = same_rounds(["Ana", "Ben"], {"Ana": "EIJKLMA", "Ben": "DNOPQRH"})
    sheets, _ = run(australia, record)
    assert per_round(sheets["Ana"], "throw_catch") == [3, 3, 3, 3]
    assert per_round(sheets["Ben"], "throw_catch") == [3, 3, 3, 3]


def test_australia_collections():
    # Ana: A, V, @ Leaves (1 each) + W Shells (3) = 6 -> doubled 12; B, E, F have no collection.
    # Ben: D, I Wildflowers (2 each) + K Souvenirs (5) = 9 -> 9; J, M, N, O have none.
    record = same_rounds(["Ana", "Ben"], {"Ana": "AV@WBEF", "Ben": "DIKJMNO"})
    sheets, _ = run(australia, record)
    assert per_round(sheets["Ana"], "collections") == [12, 12, 12, 12]
    assert per_round(sheets["Ben"], "collections") == [9, 9, 9, 9]


def test_australia_collections_edges():
    # Ana: V1 + W3 + X1 + Y1 + @1 (Z, # none) = 7 -> 14.  Ben: Shells C G (3 each) + Wildflowers D (2)
    # = 8 -> 8, not doubled (B Q R S have no collection).  Cy: E F H J M N O have none -> 0.
    record = same_rounds(["Ana", "Ben", "Cy"],
                         {"Ana": "VWXYZ@#", "Ben": "CGDBQRS", "Cy": "EFHJMNO"})
    sheets, _ = run(australia, record)
    assert per_round(sheets["Ana"], "collections") == [14] * 4
    assert per_round(sheets["Ben"], "collections") == [8] * 4
    assert per_round(sheets["Cy"], "collections") == [0] * 4


def test_australia_animals():
    # Ana: 4 Emus (E, N, R, T) = 2 pairs -> 8; A, D, I have no animal.
    # Ben: 2 Kangaroos (B, J) -> 3; K L P V W have no animal.
    # Cy: 3 Kangaroos (C, O, #) -> one pair 3; single Emu (Y), Wombat (Q), Koala (Z) -> 0; @ none.
    record = same_rounds(["Ana", "Ben", "Cy"],
                         {"Ana": "ENRTADI", "Ben": "BJKLPVW", "Cy": "CO#YQ@Z"})
    sheets, _ = run(australia, record)
    assert per_round(sheets["Ana"], "animals") == [8] * 4
    assert per_round(sheets["Ben"], "animals") == [3] * 4
    assert per_round(sheets["Cy"], "animals") == [3] * 4


def test_australia_activities():
    # Round 1: Ana has 5 Swimming (H L N S W; A is Indigenous Culture, B Sightseeing), scores
    # Swimming -> 10.  Ben has 3 Bushwalking (D K M; C none, E Indigenous Culture, F Sightseeing,
    # G none), scores Bushwalking -> 4.  Rounds 2-4: no choice -> 0.
    record = same_rounds(["Ana", "Ben"], {"Ana": "HLNSWAB", "Ben": "DKMCEFG"},
                         {"Ana": {"activities": "Swimming"}, "Ben": {"activities": "Bushwalking"}})
    sheets, _ = run(australia, record)
    assert per_round(sheets["Ana"], "activities") == [10, 0, 0, 0]
    assert per_round(sheets["Ben"], "activities") == [4, 0, 0, 0]


# A whole 2-player game. The deck is cut into four sets of 7:
#   S1 = A B C D E F G   S2 = H I J K L M N   S3 = O P Q R S T U   S4 = V W X Y Z @ #
# Ana plays S1, S2, S3, S4; Ben plays S2, S1, S4, S3.
#   S1: collections A1 C3 D2 G3 = 9 -> 9; animals Kangaroos B C -> 3 (Emu, Wombat, Platypus single);
#       activities Indigenous Culture 2 (A E), Sightseeing 2 (B F), Bushwalking 1 (D).
#   S2: collections I2 K5 L2 = 9 -> 9; animals Koalas H M -> 7; Swimming 3 (H L N), Bushwalking 2 (K M).
#   S3: collections P2 = 2 -> 4; animals Wombats Q S U (one pair 5) + Emus R T (4) -> 9;
#       Bushwalking 3 (O T U), Sightseeing 2 (P R).
#   S4: collections V1 W3 X1 Y1 @1 = 7 -> 14; animals all single -> 0; Indigenous Culture 2 (V @),
#       Swimming 2 (W #), Sightseeing 1 (Z).
# Regions (3 each, first round(s) only):
#   R1 Ana completes WA (A-D); Ben completes QLD (I-L).
#   R2 both complete NT (E F G + H): shared. Ben's WA and Ana's QLD are closed.
#   R3 Ana completes SA (M N + O P) and NSW (Q-T); Ben completes TAS (Y Z @ #).
#   R4 both complete VIC (U + V W X): shared. Ana's TAS, Ben's SA and NSW are closed.
#   Ana 3 + 3 + 6 + 3 = 15, Ben 3 + 3 + 3 + 3 = 12.  Sites: both saw all 28 cards.
AUSTRALIA_GAME = [
    ({"Ana": "ABCDEFG", "Ben": "HIJKLMN"},      # Ana A1/G4 -> 3; Ben H4/N3 -> 1
     {"Ana": {"activities": "Sightseeing"}, "Ben": {"activities": "Swimming"}}),        # 2; 4
    ({"Ana": "HIJKLMN", "Ben": "ABCDEFG"},      # Ana 1; Ben 3
     {"Ana": {"activities": "Swimming"}, "Ben": {"activities": "Sightseeing"}}),        # 4; 2
    ({"Ana": "OPQRSTU", "Ben": "VWXYZ@#"},      # Ana O3/U2 -> 1; Ben V2/#7 -> 5
     {"Ana": {"activities": "Bushwalking"}}),                                           # 4; Ben none
    ({"Ana": "VWXYZ@#", "Ben": "OPQRSTU"},      # Ana 5; Ben 1
     {"Ana": {"activities": "Indigenous Culture"}, "Ben": {"activities": "Bushwalking"}}),  # 2; 4
]


def test_australia_whole_game():
    sheets, winners = run(australia, game(["Ana", "Ben"], AUSTRALIA_GAME))
    ana, ben = sheets["Ana"], sheets["Ben"]
    assert ana["rounds"] == [
        {"throw_catch": 3, "collections": 9, "animals": 3, "activities": 2, "regions": 3},
        {"throw_catch": 1, "collections": 9, "animals": 7, "activities": 4, "regions": 3},
        {"throw_catch": 1, "collections": 4, "animals": 9, "activities": 4, "regions": 6},
        {"throw_catch": 5, "collections": 14, "animals": 0, "activities": 2, "regions": 3},
    ]
    assert ben["rounds"] == [
        {"throw_catch": 1, "collections": 9, "animals": 7, "activities": 4, "regions": 3},
        {"throw_catch": 3, "collections": 9, "animals": 3, "activities": 2, "regions": 3},
        {"throw_catch": 5, "collections": 14, "animals": 0, "activities": 0, "regions": 3},
        {"throw_catch": 1, "collections": 4, "animals": 9, "activities": 4, "regions": 3},
    ]
    assert ana["categories"] == {"throw_catch": 10, "collections": 36, "animals": 19,
                                 "activities": 12, "sites": 28, "regions": 15}
    assert ben["categories"] == {"throw_catch": 10, "collections": 36, "animals": 19,
                                 "activities": 10, "sites": 28, "regions": 12}
    assert ana["total"] == 120 and ben["total"] == 115
    assert winners == ["Ana"]


def test_australia_tie_broken_by_throw_catch():
    # As the whole game, but Ben scores Indigenous Culture in round 3 (S4: V @ -> 2), Throws I (6)
    # and Catches N (3) in round 1 (-> 3), Throws O (3) and Catches Q (5) in round 4 (-> 2).
    # Ben: throw_catch 3 + 3 + 5 + 2 = 13, activities 12 -> 13 + 36 + 19 + 12 + 28 + 12 = 120.
    # Ana 120 with throw_catch 10: tied, Ben has the better Throw & Catch.
    rounds = list(AUSTRALIA_GAME)
    rounds[0] = ({"Ana": "ABCDEFG", "Ben": "IHJKLMN"}, rounds[0][1])
    rounds[2] = (rounds[2][0], {"Ana": {"activities": "Bushwalking"},
                                "Ben": {"activities": "Indigenous Culture"}})
    rounds[3] = ({"Ana": "VWXYZ@#", "Ben": "OPRSTUQ"}, rounds[3][1])
    sheets, winners = run(australia, game(["Ana", "Ben"], rounds))
    assert per_round(sheets["Ben"], "throw_catch") == [3, 3, 5, 2]
    assert sheets["Ana"]["total"] == 120 and sheets["Ben"]["total"] == 120
    assert winners == ["Ben"]


# =================================================================================================
# Europe
# =================================================================================================
# Europe deck (europe-deck.csv): letter number treasure / cuisine or transport
#   A 2 Beer Plane      B 5 Art Bicycle     C 3 NatW Boat       D 6 Music Car      E 1 NatW Cheese
#   F 5 Arch Train      G 4 Arch Bicycle    H 6 Art Cheese      I 6 NatW Spirits   J 3 Art Train
#   K 2 Music Beer      L 4 Art Boat        M 1 Wine Car        N 7 Beer Train     O 5 NatW Train
#   P 1 Music Beer      Q 5 Music Bicycle   R 7 Music Beer      S 6 Arch Cheese    T 2 Arch Car
#   U 4 Wine Plane      V 4 Music Train     W 1 Art Wine        X 7 Art Car        Y 2 NatW Bicycle
#   Z 3 NatW Car        @ 3 Arch Cheese     # 7 Arch Boat
# Regions: Nordic A-E (+4), Baltic F-H (+3), British Isles I J (+2), Benelux K-M (+3),
#          Central N-P (+3), Eastern Q-T (+3), Southern U-Z @ # (+5).

def test_europe_throw_catch():
    # Ana: Throw G (4), Catch E (1) -> 3.  Ben: Throw W (1), Catch L (4) -> 3.
    record = same_rounds(["Ana", "Ben"], {"Ana": "GABCDFE", "Ben": "WHIJKML"})
    sheets, _ = run(europe, record)
    assert per_round(sheets["Ana"], "throw_catch") == [3] * 4
    assert per_round(sheets["Ben"], "throw_catch") == [3] * 4


def test_europe_cuisine():
    # Ana: 3 Beer (K N P) + 1 Cheese (E) = 5 -> 5; B C D have no cuisine.
    # Ben: 2 Wine (M U) + 1 Spirits (I) = 11 -> half rounded up = 6; F G J L have no cuisine.
    record = same_rounds(["Ana", "Ben"], {"Ana": "KNPEBCD", "Ben": "MUIFGJL"})
    sheets, _ = run(europe, record)
    assert per_round(sheets["Ana"], "cuisine") == [5] * 4
    assert per_round(sheets["Ben"], "cuisine") == [6] * 4


def test_europe_cuisine_edges():
    # Ana: Wine M U (6) + Beer A (1) = 7 -> 7.  Ben: Wine W (3) + Cheese E H (4) + Beer K (1) = 8 -> 4.
    # Ana's B C D F have no cuisine; Ben's G J L have none.
    record = same_rounds(["Ana", "Ben"], {"Ana": "MUABCDF", "Ben": "WEHKGJL"})
    sheets, _ = run(europe, record)
    assert per_round(sheets["Ana"], "cuisine") == [7] * 4
    assert per_round(sheets["Ben"], "cuisine") == [4] * 4


def test_europe_transport():
    # Ana: 2 Trains (J N) -> 4; E H K P R have no transport.
    # Ben: 2 Cars (D M) -> 3 and 2 Boats (C L) -> 7 = 10; I S W have no transport.
    record = same_rounds(["Ana", "Ben"], {"Ana": "JNEHKPR", "Ben": "DMCLISW"})
    sheets, _ = run(europe, record)
    assert per_round(sheets["Ana"], "transport") == [4] * 4
    assert per_round(sheets["Ben"], "transport") == [10] * 4


def test_europe_treasures_two_players():
    # Art icons: B H J L W X. Ana holds B and W (her own Art does not count) and scores Art;
    # Ben holds 3 Art (H J L) -> 3 * 4 = 12.
    record = same_rounds(["Ana", "Ben"], {"Ana": "BWACDEF", "Ben": "HJLGIKM"},
                         {"Ana": {"treasures": "Art"}})
    sheets, _ = run(europe, record)
    assert per_round(sheets["Ana"], "treasures") == [12, 0, 0, 0]
    assert per_round(sheets["Ben"], "treasures") == [0] * 4


def test_europe_treasures_three_players():
    # Ana holds B (Art) and scores Art; Ben holds H J (Art), Cy holds L (Art) -> 3 * 3 = 9.
    # (Ben's I O are Natural Wonders, K Music; Cy's P Q R Music, S T Architecture, U none.)
    record = same_rounds(["Ana", "Ben", "Cy"],
                         {"Ana": "BACDEFG", "Ben": "HJIKMNO", "Cy": "LPQRSTU"},
                         {"Ana": {"treasures": "Art"}})
    sheets, _ = run(europe, record)
    assert per_round(sheets["Ana"], "treasures") == [9, 0, 0, 0]


def test_europe_treasures_four_players():
    # All 28 cards dealt. Ana holds 3 Art (B W X) and scores Art; Ben H J, Cy L, Dee none
    # -> 3 other Art icons * 2 = 6.
    # Ben holds Architecture (F G) and scores it: Cy S, Dee T @ # = 4 other icons * 2 = 8
    # (the rulebook's "8 points for Architecture" in a 4-player game).
    record = same_rounds(["Ana", "Ben", "Cy", "Dee"],
                         {"Ana": "BWXACDE", "Ben": "HJFGIKM", "Cy": "LNOPQRS", "Dee": "TUVYZ@#"},
                         {"Ana": {"treasures": "Art"}, "Ben": {"treasures": "Architecture"}})
    sheets, _ = run(europe, record)
    assert per_round(sheets["Ana"], "treasures") == [6, 0, 0, 0]
    assert per_round(sheets["Ben"], "treasures") == [8, 0, 0, 0]


# Passport: a country visited in every region. PA has one card of each region; the other sets miss
# regions: PB = Nordic+Baltic+British Isles, PC = Benelux+Central+Eastern, PD = Southern only.
PA, PB, PC, PD = "AFIKNQU", "JBCDEGH", "LMOPRST", "VWXYZ@#"


def test_europe_passport_places_four_players():
    # R1 Ana -> place 1 -> 7; R2 Ben -> place 2 -> 3; R3 Cy -> place 3 -> 1 (4 players);
    # R4 Dee -> place 4 -> 0.
    record = game(["Ana", "Ben", "Cy", "Dee"], [
        ({"Ana": PA, "Ben": PB, "Cy": PC, "Dee": PD}, {}),
        ({"Ana": PB, "Ben": PA, "Cy": PC, "Dee": PD}, {}),
        ({"Ana": PB, "Ben": PC, "Cy": PA, "Dee": PD}, {}),
        ({"Ana": PB, "Ben": PC, "Cy": PD, "Dee": PA}, {}),
    ])
    sheets, _ = run(europe, record)
    assert per_round(sheets["Ana"], "passport") == [7, 0, 0, 0]
    assert per_round(sheets["Ben"], "passport") == [0, 3, 0, 0]
    assert per_round(sheets["Cy"], "passport") == [0, 0, 1, 0]
    assert per_round(sheets["Dee"], "passport") == [0, 0, 0, 0]


def test_europe_passport_places_three_players():
    # Same start without Dee (21 cards a round): 7, 3, then 1 for the third (3 players).
    record = game(["Ana", "Ben", "Cy"], [
        ({"Ana": PA, "Ben": PB, "Cy": PC}, {}),
        ({"Ana": PB, "Ben": PA, "Cy": PC}, {}),
        ({"Ana": PB, "Ben": PC, "Cy": PA}, {}),
        ({"Ana": PA, "Ben": PB, "Cy": PC}, {}),
    ])
    sheets, _ = run(europe, record)
    assert sheets["Ana"]["categories"]["passport"] == 7
    assert sheets["Ben"]["categories"]["passport"] == 3
    assert sheets["Cy"]["categories"]["passport"] == 1


def test_europe_passport_shared_place():
    # R1 Ana qualifies (7). R2 nobody new. R3 Ben (place 2 -> 3).
    # R4 Cy (had Benelux, Central, Eastern; now A Nordic, F Baltic, I British Isles, U Southern)
    # and Dee (had Southern; now B G J K N Q) both qualify: they share place 3 -> 1 each.
    record = game(["Ana", "Ben", "Cy", "Dee"], [
        ({"Ana": PA, "Ben": PB, "Cy": PC, "Dee": PD}, {}),
        ({"Ana": PA, "Ben": PB, "Cy": PC, "Dee": PD}, {}),
        ({"Ana": PB, "Ben": PA, "Cy": PC, "Dee": PD}, {}),
        ({"Ana": "CDEHMPS", "Ben": "TWXYZ@#", "Cy": "AFIULOR", "Dee": "BGJKNQV"}, {}),
    ])
    sheets, _ = run(europe, record)
    assert per_round(sheets["Ana"], "passport") == [7, 0, 0, 0]
    assert per_round(sheets["Ben"], "passport") == [0, 0, 3, 0]
    assert per_round(sheets["Cy"], "passport") == [0, 0, 0, 1]
    assert per_round(sheets["Dee"], "passport") == [0, 0, 0, 1]


def test_europe_passport_place_counts_rounds_not_seats():
    # R1 Ana (A F I K N Q U) and Ben (B G J L O R V) each hold one country of every region: both
    # place 1 -> 7. R2 Cy (C D E H M P S before) adds I and U -> place 2 -> 3 (not third although
    # two seats were ahead). R3 Dee (Eastern T and Southern before) takes A F I K N Q U -> place 3
    # -> 1 (4 players).
    record = game(["Ana", "Ben", "Cy", "Dee"], [
        ({"Ana": "AFIKNQU", "Ben": "BGJLORV", "Cy": "CDEHMPS", "Dee": "TWXYZ@#"}, {}),
        ({"Ana": "AFJKNQP", "Ben": "BGLORVS", "Cy": "IUCDEHM", "Dee": "TWXYZ@#"}, {}),
        ({"Ana": "TWXYZ@#", "Ben": "BGJLORV", "Cy": "CDEHMPS", "Dee": "AFIKNQU"}, {}),
        ({"Ana": "TWXYZ@#", "Ben": "BGJLORV", "Cy": "CDEHMPS", "Dee": "AFIKNQU"}, {}),
    ])
    sheets, _ = run(europe, record)
    assert per_round(sheets["Ana"], "passport") == [7, 0, 0, 0]
    assert per_round(sheets["Ben"], "passport") == [7, 0, 0, 0]
    assert per_round(sheets["Cy"], "passport") == [0, 3, 0, 0]
    assert per_round(sheets["Dee"], "passport") == [0, 0, 1, 0]


# A whole 2-player game: E1 = A-G, E2 = H-N, E3 = O-U, E4 = V W X Y Z @ #.
# Ana plays E1, E2, E3, E4; Ben plays E2, E1, E4, E3.
#   E1: cuisine Beer A + Cheese E = 3; transport Bicycles B G -> 5; treasures Art 1 (B),
#       Natural Wonders 2 (C E), Music 1 (D), Architecture 2 (F G).
#   E2: cuisine Cheese H 2 + Spirits I 5 + Beer K 1 + Wine M 3 + Beer N 1 = 12 -> 6;
#       transport Trains J N -> 4; Art 3 (H J L), Natural Wonders 1 (I), Music 1 (K).
#   E3: cuisine Beer P 1 + Beer R 1 + Cheese S 2 + Wine U 3 = 7; transport all single -> 0;
#       Natural Wonders 1 (O), Music 3 (P Q R), Architecture 2 (S T).
#   E4: cuisine Wine W 3 + Cheese @ 2 = 5; transport Cars X Z -> 3; Music 1 (V), Art 2 (W X),
#       Natural Wonders 2 (Y Z), Architecture 2 (@ #).
# Treasures (2 players: 4 a matching icon on the other seat's cards):
#   R1 Ana Art (Ben E2 has 3) 12, Ben Natural Wonders (Ana E1 has 2) 8;
#   R2 Ana Natural Wonders (Ben E1: 2) 8, Ben Art (Ana E2: 3) 12;
#   R3 Ana Architecture (Ben E4: 2) 8, Ben Music (Ana E3: 3) 12;
#   R4 Ana Music (Ben E3: 3) 12, Ben Architecture (Ana E4: 2) 8.
# Regions: R1 Ana Nordic 4; Ben British Isles 2 + Benelux 3.  R2 both Baltic (F G + H) 3 each.
#   R3 Ana Central (N + O P) 3 + Eastern 3; Ben nothing (Southern lacks U).
#   R4 both Southern (U + V..#) 5 each. Ana 4+3+6+5 = 18, Ben 5+3+0+5 = 13.
# Passport: R3 Ana has all 7 regions (U is Southern) -> 7; R4 Ben (Eastern) -> place 2 -> 3.
EUROPE_GAME = [
    ({"Ana": "ABCDEFG", "Ben": "HIJKLMN"},      # Ana A2/G4 -> 2; Ben H6/N7 -> 1
     {"Ana": {"treasures": "Art"}, "Ben": {"treasures": "Natural Wonders"}}),
    ({"Ana": "HIJKLMN", "Ben": "ABCDEFG"},      # Ana 1; Ben 2
     {"Ana": {"treasures": "Natural Wonders"}, "Ben": {"treasures": "Art"}}),
    ({"Ana": "OPQRSTU", "Ben": "VWXYZ@#"},      # Ana O5/U4 -> 1; Ben V4/#7 -> 3
     {"Ana": {"treasures": "Architecture"}, "Ben": {"treasures": "Music"}}),
    ({"Ana": "VWXYZ@#", "Ben": "OPQRSTU"},      # Ana 3; Ben 1
     {"Ana": {"treasures": "Music"}, "Ben": {"treasures": "Architecture"}}),
]


def test_europe_whole_game():
    sheets, winners = run(europe, game(["Ana", "Ben"], EUROPE_GAME))
    ana, ben = sheets["Ana"], sheets["Ben"]
    assert ana["rounds"] == [
        {"throw_catch": 2, "cuisine": 3, "transport": 5, "treasures": 12, "regions": 4, "passport": 0},
        {"throw_catch": 1, "cuisine": 6, "transport": 4, "treasures": 8, "regions": 3, "passport": 0},
        {"throw_catch": 1, "cuisine": 7, "transport": 0, "treasures": 8, "regions": 6, "passport": 7},
        {"throw_catch": 3, "cuisine": 5, "transport": 3, "treasures": 12, "regions": 5, "passport": 0},
    ]
    assert ben["rounds"] == [
        {"throw_catch": 1, "cuisine": 6, "transport": 4, "treasures": 8, "regions": 5, "passport": 0},
        {"throw_catch": 2, "cuisine": 3, "transport": 5, "treasures": 12, "regions": 3, "passport": 0},
        {"throw_catch": 3, "cuisine": 5, "transport": 3, "treasures": 12, "regions": 0, "passport": 0},
        {"throw_catch": 1, "cuisine": 7, "transport": 0, "treasures": 8, "regions": 5, "passport": 3},
    ]
    assert ana["categories"] == {"throw_catch": 7, "cuisine": 21, "transport": 12, "treasures": 40,
                                 "sites": 28, "regions": 18, "passport": 7}
    assert ben["categories"] == {"throw_catch": 7, "cuisine": 21, "transport": 12, "treasures": 40,
                                 "sites": 28, "regions": 13, "passport": 3}
    assert ana["total"] == 133 and ben["total"] == 124
    assert winners == ["Ana"]


def test_europe_tie_broken_by_passport_before_throw_catch():
    # As the whole game, but Ana scores Music in R3 (Ben's E4 has 1 -> 4) and Architecture in R4
    # (Ben's E3 has S T -> 8): treasures 12 + 8 + 4 + 8 = 32, total 133 - 8 = 125.
    # Ben Throws H (6) and Catches L (4) in R1 -> 2: throw_catch 8, total 125.
    # Tied; Ana's passport 7 beats Ben's 3 although Ben has more Throw & Catch (8 > 7).
    rounds = list(EUROPE_GAME)
    rounds[0] = ({"Ana": "ABCDEFG", "Ben": "HIJKMNL"}, rounds[0][1])
    rounds[2] = (rounds[2][0], {"Ana": {"treasures": "Music"}, "Ben": {"treasures": "Music"}})
    rounds[3] = (rounds[3][0], {"Ana": {"treasures": "Architecture"},
                                "Ben": {"treasures": "Architecture"}})
    sheets, winners = run(europe, game(["Ana", "Ben"], rounds))
    assert per_round(sheets["Ana"], "treasures") == [12, 8, 4, 8]
    assert sheets["Ana"]["total"] == 125 and sheets["Ben"]["total"] == 125
    assert sheets["Ben"]["categories"]["throw_catch"] == 8
    assert winners == ["Ana"]


# =================================================================================================
# USA
# =================================================================================================
# USA deck (usa-deck.csv): letter activity / americana / animal
#   A Jersey(3) Bigfoot   B Dining Cattle      C Sightseeing Grizzly  D Sporting Bald eagle
#   E Sporting Grizzly    F Dining Grizzly     G Hiking Cattle        H Sightseeing Cattle
#   I Hiking Cap(2)       J Dining Mail box(1) K Sightseeing Trout    L Jersey(3) Trout
#   M Hiking Bald eagle   N Hiking Trout       O Sightseeing Cap(2)   P Sporting Cattle
#   Q Sporting Jersey(3)  R Dining Mail box(1) S Hiking Grizzly       T Mail box(1) Trout
#   U Sporting Cap(2)     V Sightseeing Cap(2) W Hiking US flag(5)    X Dining Trout
#   Y Mail box(1) Cattle  Z Sightseeing Bald eagle  @ Dining Mail box(1)  # Sporting Trout
# Regions of 4: A-D, E-H, I-L, M-P, Q-T, U-X, Y Z @ #. West coast A B C D; east coast T X Z @ #.
# Paths: A-E B-G C-F C-G D-F D-I E-G E-M F-H G-H H-J H-M I-J J-K K-L K-P L-R M-N N-O O-U P-Q
#        Q-S Q-U R-S S-T S-W U-V V-W V-X V-Y V-Z Y-@ Y-#.

def test_usa_throw_catch():
    # Ana: Throw A (4), Catch E (5) -> 4.  Ben: Throw I (3), Catch Q (2) -> 0.
    # Cy: Throw H (5), Catch F (5) -> 5 (Catch equal to Throw scores).
    record = same_rounds(["Ana", "Ben", "Cy"],
                         {"Ana": "ABCDGKE", "Ben": "IJLMNOQ", "Cy": "HPRSTUF"})
    sheets, _ = run(usa, record)
    assert per_round(sheets["Ana"], "throw_catch") == [4] * 4
    assert per_round(sheets["Ben"], "throw_catch") == [0] * 4
    assert per_round(sheets["Cy"], "throw_catch") == [5] * 4


def test_usa_americana_rulebook_sheet():
    # Sums 8, 7, 7, 14 -> 8, 0, 7, 14 = 29 (the rulebook's example sheet).
    # R1 W(5) + Q(3) = 8; R2 and R3 W(5) + I(2) = 7; R4 W(5) + A(3) + L(3) + Q(3) = 14.
    # B C D E F G have no Americana. Ben's cards have none either: 0 every round.
    record = game(["Ana", "Ben"], [
        ({"Ana": "WQBCDEF", "Ben": "GHKMNPS"}, {}),
        ({"Ana": "WIBCDEF", "Ben": "GHKMNPS"}, {}),
        ({"Ana": "WIBCDEF", "Ben": "GHKMNPS"}, {}),
        ({"Ana": "WALQBCD", "Ben": "EFGHKMN"}, {}),
    ])
    sheets, _ = run(usa, record)
    assert per_round(sheets["Ana"], "americana") == [8, 0, 7, 14]
    assert sheets["Ana"]["categories"]["americana"] == 29
    assert per_round(sheets["Ben"], "americana") == [0] * 4


def test_usa_americana_needs_more_than_last_score():
    # Julien: 3 Jerseys (A L Q) + 1 Mail box (J) = 10 -> 10. Next round 10 again (W5 Q3 I2) is not
    # more -> 0; then 11 (W5 Q3 A3) beats the 0 -> 11; 11 again -> 0.
    record = game(["Ana", "Ben"], [
        ({"Ana": "ALQJBCD", "Ben": "EFGHKMN"}, {}),
        ({"Ana": "WQIBCDE", "Ben": "FGHKMNP"}, {}),
        ({"Ana": "WQABCDE", "Ben": "FGHKMNP"}, {}),
        ({"Ana": "WQABCDE", "Ben": "FGHKMNP"}, {}),
    ])
    sheets, _ = run(usa, record)
    assert per_round(sheets["Ana"], "americana") == [10, 0, 11, 0]


def test_usa_animals():
    # Ana: a pair of Cattle (B G) 4 + a pair of Grizzlies (E F) 5 = 9; I J O have no animal.
    # Ben: two Trout (K L) -> 3; Q R U V W have no animal.
    record = same_rounds(["Ana", "Ben"], {"Ana": "BGEFIJO", "Ben": "KLQRUVW"})
    sheets, _ = run(usa, record)
    assert per_round(sheets["Ana"], "animals") == [9] * 4
    assert per_round(sheets["Ben"], "animals") == [3] * 4


def test_usa_activities():
    # R1 Ana: 5 Hiking (G I M N S; A B not Hiking) -> 10.  Ben: 3 Sporting events (D E P) -> 4.
    # R2 Ben: 3 Hiking (G I M) -> 4.  Ana: 2 Dining (F J) -> 2.  R3, R4: no choice.
    r1 = {"Ana": "GIMNSAB", "Ben": "DEPCFHJ"}
    record = game(["Ana", "Ben"], [
        (r1, {"Ana": {"activities": "Hiking"}, "Ben": {"activities": "Sporting events"}}),
        ({"Ana": "EFHJKLO", "Ben": "GIMABCD"},
         {"Ana": {"activities": "Dining"}, "Ben": {"activities": "Hiking"}}),
        (r1, {}),
        (r1, {}),
    ])
    sheets, _ = run(usa, record)
    assert per_round(sheets["Ana"], "activities") == [10, 2, 0, 0]
    assert per_round(sheets["Ben"], "activities") == [4, 4, 0, 0]


def test_usa_coast_to_coast_needs_a_chain():
    # R1 Ana visits west A B C and east T X Z @, but no path joins them -> nothing.
    # Ben visits D I J K P Q S (no east town yet) -> nothing.
    # R2 Ana adds E M N O U V Y: A-E-M-N-O-U-V-X. Ben adds T: D-I-J-K-P-Q-S-T.
    # Both first qualify in R2: they share place 1 -> 7 each.
    r1 = {"Ana": "ABCTXZ@", "Ben": "DIJKPQS"}
    record = game(["Ana", "Ben"], [
        (r1, {}),
        ({"Ana": "EMNOUVY", "Ben": "TFGHLR#"}, {}),
        (r1, {}),
        (r1, {}),
    ])
    sheets, _ = run(usa, record)
    assert per_round(sheets["Ana"], "coast_to_coast") == [0, 7, 0, 0]
    assert per_round(sheets["Ben"], "coast_to_coast") == [0, 7, 0, 0]


# Coast to coast with 4 players (all 28 cards every round). A chain needs at least 8 towns, so no
# one can qualify in round 1.
#   R2 Ana: D I J K P Q S (R1) + T -> place 1 -> 7.
#   R3 Ben: B G H M N O U (R1) + V X -> B-G-H-M-N-O-U-V-X -> place 2 -> 3.
#   R4 Cy: A E (R1) N O Q S U (R2) + M T -> A-E-M-N-O-U-Q-S-T; Dee: T (R1) I J K L (R3) + D R S
#      -> D-I-J-K-L-R-S-T. Both place 3 -> 1 each (3-4 players).
#   Before that: Ben, Cy had no east-coast town; Dee had no west-coast town.
USA_COAST_RACE = [
    {"Ana": "DIJKPQS", "Ben": "BGHMNOU", "Cy": "ACEFLRW", "Dee": "TVXYZ@#"},
    {"Ana": "TABCDEF", "Ben": "GHIJKLM", "Cy": "NOPQRSU", "Dee": "XZ@#VYW"},
    {"Ana": "TZ@#FGH", "Ben": "VXABCDE", "Cy": "PQRSUWY", "Dee": "IJKLMNO"},
    {"Ana": "KLNOPQU", "Ben": "VWXYZ@#", "Cy": "MTABCEF", "Dee": "DRSGHIJ"},
]


def test_usa_coast_to_coast_four_players():
    record = game(["Ana", "Ben", "Cy", "Dee"], [(drafts, {}) for drafts in USA_COAST_RACE])
    sheets, _ = run(usa, record)
    assert per_round(sheets["Ana"], "coast_to_coast") == [0, 7, 0, 0]
    assert per_round(sheets["Ben"], "coast_to_coast") == [0, 0, 3, 0]
    assert per_round(sheets["Cy"], "coast_to_coast") == [0, 0, 0, 1]
    assert per_round(sheets["Dee"], "coast_to_coast") == [0, 0, 0, 1]


def test_usa_coast_to_coast_three_players():
    # The same rounds without Dee: 7, 3, then 1 for the third seat.
    rounds = [({n: d[n] for n in ("Ana", "Ben", "Cy")}, {}) for d in USA_COAST_RACE]
    sheets, _ = run(usa, game(["Ana", "Ben", "Cy"], rounds))
    assert [sheets[n]["categories"]["coast_to_coast"] for n in ("Ana", "Ben", "Cy")] == [7, 3, 1]


# A whole 2-player game.
#   Ana R1 A C G H M N W, R2 O U L B E F K, R3 P V W Z D X #, R4 Q A L G M N W
#   Ben R1 I D J K P S Q, R2 T R X Y Z @ #, R3 M B C L N O A, R4 B F H I J K E
# Throw & Catch: Ana A4/G5 -> 4, L3/U6 -> 3, P1/#7 -> 1, Q2/W6 -> 2 = 10;
#                Ben I3/Q2 -> 0, T2/#7 -> 2, M1/A4 -> 1, B4/E5 -> 4 = 7.
# Americana: Ana A3+W5 = 8 -> 8; O2+U2+L3 = 7 -> 0; V2+W5 = 7 -> 7; A3+L3+Q3+W5 = 14 -> 14 = 29.
#            Ben I2+J1+Q3 = 6 -> 6; T1+R1+Y1+@1 = 4 -> 0; A3+L3+O2 = 8 -> 8; I2+J1 = 3 -> 0 = 14.
# Animals: Ana Cattle G H 4; Trout L K 3 + Grizzly E F 5 = 8; Bald eagle Z D 7 + Trout X # 3 = 10;
#          Trout L N 3 -> 25.  Ben 0; Trout T X # (one pair) 3; Trout L N 3; Grizzly E F 5 +
#          Cattle B H 4 = 9 -> 15.
# Activities: Ana Sightseeing C H (2) -> 2, Dining B F (2) -> 2, Sporting events P D # (3) -> 4,
#             Hiking G M N W (4) -> 7 = 15.  Ben Sporting events D P Q (3) -> 4,
#             Dining R X @ (3) -> 4, Hiking M N (2) -> 2, Sightseeing H K (2) -> 2 = 12.
# Regions: R2 Ana Mountain West (G H + E F); Ben Southeast (Q S + R T) and Northeast (Y Z @ #).
#   R3 Ana West Coast (A C, B, D), Midwest (M N, O, P), Mid-Atlantic (U, V W X);
#      Ben West Coast (D + A B C) and Midwest (P + M N O) in the same round, Southwest (I J K + L).
#   Ana 3 + 9 = 12, Ben 6 + 9 = 15.
# Coast: R2 Ben D-I-J-K-P-Q-S-T -> 7; R3 Ana C-G-H-M-N-O-U-V-Z -> place 2 -> 3.
# Sites: Ana misses I J R S T Y @ -> 21; Ben misses G U V W -> 24.
USA_GAME = [
    ({"Ana": "ACHMNWG", "Ben": "IDJKPSQ"},
     {"Ana": {"activities": "Sightseeing"}, "Ben": {"activities": "Sporting events"}}),
    ({"Ana": "LOBEFKU", "Ben": "TRXYZ@#"},
     {"Ana": {"activities": "Dining"}, "Ben": {"activities": "Dining"}}),
    ({"Ana": "PVWZDX#", "Ben": "MBCLNOA"},
     {"Ana": {"activities": "Sporting events"}, "Ben": {"activities": "Hiking"}}),
    ({"Ana": "QALGMNW", "Ben": "BFHIJKE"},
     {"Ana": {"activities": "Hiking"}, "Ben": {"activities": "Sightseeing"}}),
]


def test_usa_whole_game():
    sheets, winners = run(usa, game(["Ana", "Ben"], USA_GAME))
    ana, ben = sheets["Ana"], sheets["Ben"]
    keys = ("throw_catch", "americana", "animals", "activities", "regions", "coast_to_coast")
    assert [[r[k] for k in keys] for r in ana["rounds"]] == [
        [4, 8, 4, 2, 0, 0],
        [3, 0, 8, 2, 3, 0],
        [1, 7, 10, 4, 9, 3],
        [2, 14, 3, 7, 0, 0],
    ]
    assert [[r[k] for k in keys] for r in ben["rounds"]] == [
        [0, 6, 0, 4, 0, 0],
        [2, 0, 3, 4, 6, 7],
        [1, 8, 3, 2, 9, 0],
        [4, 0, 9, 2, 0, 0],
    ]
    assert ana["categories"] == {"throw_catch": 10, "americana": 29, "animals": 25, "activities": 15,
                                 "sites": 21, "regions": 12, "coast_to_coast": 3}
    assert ben["categories"] == {"throw_catch": 7, "americana": 14, "animals": 15, "activities": 12,
                                 "sites": 24, "regions": 15, "coast_to_coast": 7}
    assert ana["total"] == 115 and ben["total"] == 94
    assert winners == ["Ana"]


# A partition for tie-breaks: X = D I J K P Q S, Y = A B E F G L M, Z = C T V Y Z @ #,
# W = H N O R U W X. Ana plays X, Y, Z, W; Ben plays Y, X, W, Z.
#   Americana: X I2+J1+Q3 = 6, Y A3+L3 = 6, Z T1+V2+Y1+@1 = 5, W O2+R1+U2+W5 = 10.
#     Ana 6, 0 (6 is not more than 6), 5, 10 = 21.  Ben 6, 0, 10, 0 (5 < 10) = 16.
#   Animals: X 0; Y Grizzly E F 5 + Cattle B G 4 = 9; Z Trout T # 3; W Trout N X 3 -> 15 each.
#   Regions: R2 both Southwest (I J K + L). R3 Ana West Coast (C) + Northeast; Ben Mountain West (H)
#     + Midwest (N O). R4 both Southeast (R / T) + Mid-Atlantic (U W X / V). 15 each.
#   Coast: R3 Ana D-I-J-K-P-Q-S-T -> 7 (Ben's only east town then, X, has no visited neighbour);
#     R4 Ben -> 3.  Sites 28 each.
#   Without Throw & Catch and activities: Ana 21 + 15 + 15 + 28 + 7 = 86, Ben 16 + 15 + 15 + 28 + 3 = 77.
#   Throw & Catch: Ana P1/D4 -> 1, M1/A4 -> 1, T2/C4 -> 2, U6/N1 -> 0 = 4;
#                  Ben A4/E5 -> 4, I3/Q2 -> 0, O1/X6 -> 1, T2/#7 -> 2 = 7.
#   Activities: Ana none; Ben Dining in R1 (B F) -> 2 and Sporting events in R2 (D P Q) -> 4 = 6.
#   Ana 86 + 4 = 90, Ben 77 + 7 + 6 = 90: tied, Ana's coast-to-coast 7 beats Ben's 3 (Ben has the
#   better Throw & Catch).
def test_usa_tie_broken_by_coast_to_coast_before_throw_catch():
    record = game(["Ana", "Ben"], [
        ({"Ana": "PIJKQSD", "Ben": "ABFGLME"}, {"Ben": {"activities": "Dining"}}),
        ({"Ana": "MBEFGLA", "Ben": "IDJKPSQ"}, {"Ben": {"activities": "Sporting events"}}),
        ({"Ana": "TVYZ@#C", "Ben": "OHNRUWX"}, {}),
        ({"Ana": "UHORWXN", "Ben": "TCVYZ@#"}, {}),
    ])
    sheets, winners = run(usa, record)
    ana, ben = sheets["Ana"], sheets["Ben"]
    assert per_round(ana, "americana") == [6, 0, 5, 10]
    assert per_round(ben, "americana") == [6, 0, 10, 0]
    assert per_round(ana, "regions") == [0, 3, 6, 6]
    assert per_round(ben, "regions") == [0, 3, 6, 6]
    assert per_round(ana, "coast_to_coast") == [0, 0, 7, 0]
    assert per_round(ben, "coast_to_coast") == [0, 0, 0, 3]
    assert ana["categories"]["throw_catch"] == 4 and ben["categories"]["throw_catch"] == 7
    assert ana["total"] == 90 and ben["total"] == 90
    assert winners == ["Ana"]


# Both seats alternate X = D I J K P Q S and Y = A B E F G L M: no east-coast town, so no
# coast-to-coast; both complete the Southwest in R2 (3 each); 14 sites each.
#   Americana 6, 0, 6, 0 = 12 each. Animals (X 0, Y 9) 18 each.
#   Activities: Ana Sporting events (X: D P Q) 4, Dining (Y: B F) 2, Hiking (X: I S) 2 = 8;
#               Ben Dining (Y) 2, Sporting events (X) 4, Hiking (Y: G M) 2, Sightseeing (X: K) 0 = 8.
#   Throw & Catch: Ana I3/Q2 -> 0, A4/E5 -> 4, P1/D4 -> 1, M1/L3 -> 1 = 6;
#                  Ben A4/E5 -> 4, I3/Q2 -> 0, M1/L3 -> 1, P1/D4 -> 1 = 6.
#   Totals 6 + 12 + 18 + 8 + 14 + 3 + 0 = 61 each.
USA_SYMMETRIC = [
    ({"Ana": "IDJKPSQ", "Ben": "ABFGLME"},
     {"Ana": {"activities": "Sporting events"}, "Ben": {"activities": "Dining"}}),
    ({"Ana": "ABFGLME", "Ben": "IDJKPSQ"},
     {"Ana": {"activities": "Dining"}, "Ben": {"activities": "Sporting events"}}),
    ({"Ana": "PIJKQSD", "Ben": "MABEFGL"},
     {"Ana": {"activities": "Hiking"}, "Ben": {"activities": "Hiking"}}),
    ({"Ana": "MABEFGL", "Ben": "PIJKQSD"},
     {"Ben": {"activities": "Sightseeing"}}),
]


def test_usa_full_tie_all_win():
    sheets, winners = run(usa, game(["Ana", "Ben"], USA_SYMMETRIC))
    for name in ("Ana", "Ben"):
        assert sheets[name]["categories"] == {"throw_catch": 6, "americana": 12, "animals": 18,
                                              "activities": 8, "sites": 14, "regions": 3,
                                              "coast_to_coast": 0}
        assert sheets[name]["total"] == 61
    assert winners == ["Ana", "Ben"]


def test_usa_tie_broken_by_throw_catch():
    # As the symmetric game, but Ben makes no choice in R3 (activities 6) and Throws J (3), Catches
    # K (3) in R4 (-> 3): throw_catch 8, total 61 again. Coast-to-coast 0 each: Throw & Catch decides.
    rounds = list(USA_SYMMETRIC)
    rounds[2] = (rounds[2][0], {"Ana": {"activities": "Hiking"}})
    rounds[3] = ({"Ana": "MABEFGL", "Ben": "JIPQSDK"}, rounds[3][1])
    sheets, winners = run(usa, game(["Ana", "Ben"], rounds))
    assert sheets["Ben"]["categories"]["throw_catch"] == 8
    assert sheets["Ana"]["total"] == 61 and sheets["Ben"]["total"] == 61
    assert winners == ["Ben"]
