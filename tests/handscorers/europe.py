"""Hand-written scorer for Boomerang: Europe (Grail Games 2020, rules per /work/shared/DESIGN.md).

score(record) -> score sheet; the record and sheet formats are described in _common.py.
"""

import math

from . import _common

# ---- rules: icon values (rulebook) -------------------------------------------------------------
CUISINE_VALUES = {"Beer": 1, "Cheese": 2, "Wine": 3, "Spirits": 5}
TRANSPORT_VALUES = {"Car": 3, "Train": 4, "Bicycle": 5, "Boat": 7, "Plane": 9}
TREASURES = ("Art", "Architecture", "Music", "Natural Wonders")
TREASURE_RATE = {2: 4, 3: 3, 4: 2}  # points per matching icon on the other seats' cards


def passport_award(place, player_count):
    """First to visit a country in every region: 7, then 3, then 1 (third place, 3-4 players)."""
    if place == 1:
        return 7
    if place == 2:
        return 3
    if place == 3 and player_count >= 3:
        return 1
    return 0


KEYS = ("throw_catch", "cuisine", "transport", "treasures", "sites", "regions", "passport")
ROUND_KEYS = tuple(k for k in KEYS if k != "sites")

# ---- card data ---------------------------------------------------------------------------------
# CARDS[letter] = {"number": int, "region": str, "cuisine": str|None, "transport": str|None,
#                  "treasure": str|None}
CARDS = {}
for _row in _common.read_csv("europe-deck.csv"):
    _card = {"number": int(_row["number"]), "region": _row["region"],
             "cuisine": None, "transport": None, "treasure": None}
    for _family, _icon in ((_row["icon_1_family"], _row["icon_1"]),
                           (_row["icon_2_family"], _row["icon_2"])):
        if _family == "cuisine":
            assert _icon in CUISINE_VALUES
            _card["cuisine"] = _icon
        elif _family == "transport":
            assert _icon in TRANSPORT_VALUES
            _card["transport"] = _icon
        elif _family == "national_treasure":
            assert _icon in TREASURES
            _card["treasure"] = _icon
        else:
            raise AssertionError(f"unknown icon family {_family!r}")
    CARDS[_row["letter"]] = _card
assert len(CARDS) == 28

# REGIONS[name] = (set of letters, bonus points)
REGIONS = {}
for _row in _common.read_csv("europe-regions.csv"):
    REGIONS[_row["region_name_used_here"]] = (set(_row["deck_letters"].split(";")),
                                              int(_row["region_bonus"]))
for _letter, _card in CARDS.items():
    assert _letter in REGIONS[_card["region"]][0]


# ---- categories of one round -------------------------------------------------------------------
def throw_catch(cards):
    """|Throw number - Catch number|; Throw is the first card drafted, Catch the last."""
    return abs(CARDS[cards[0]]["number"] - CARDS[cards[-1]]["number"])


def cuisine(cards):
    """Sum of the cuisine values; when it is 8 or more, half of it rounded up."""
    total = 0
    for letter in cards:
        kind = CARDS[letter]["cuisine"]
        if kind is not None:
            total += CUISINE_VALUES[kind]
    if total >= 8:
        return math.ceil(total / 2)
    return total


def transport(cards):
    """Each pair of the same transport scores that transport's value once."""
    icons = [CARDS[letter]["transport"] for letter in cards if CARDS[letter]["transport"] is not None]
    return _common.pair_points(icons, TRANSPORT_VALUES)


def treasures(name, chosen, drafts):
    """Optional: for the chosen treasure, which the seat must hold at least once this round,
    the matching icons on every OTHER seat's cards of the round, times 4/3/2 for 2/3/4 players."""
    if chosen is None:
        return 0
    own = sum(1 for letter in drafts[name] if CARDS[letter]["treasure"] == chosen)
    if own == 0:
        return 0
    others = 0
    for other, cards in drafts.items():
        if other != name:
            others += sum(1 for letter in cards if CARDS[letter]["treasure"] == chosen)
    return others * TREASURE_RATE[len(drafts)]


# ---- the whole game ----------------------------------------------------------------------------
def score(record):
    names = list(record["players"])
    rounds = record["rounds"]
    assert len(rounds) == 4

    per_round = {name: [] for name in names}
    visited = {name: set() for name in names}
    closed_regions = set()  # regions whose bonus was taken in an earlier round
    passport_round = {name: None for name in names}  # round index in which the seat first qualified

    for index, rnd in enumerate(rounds):
        drafts = rnd["drafts"]
        choices = rnd.get("choices") or {}
        for name in names:
            visited[name].update(drafts[name])

        # Regions: every seat that has now visited all of a still-open region scores its bonus.
        region_points = {name: 0 for name in names}
        taken_now = set()
        for region, (letters, bonus) in REGIONS.items():
            if region in closed_regions:
                continue
            for name in names:
                if letters <= visited[name]:
                    region_points[name] += bonus
                    taken_now.add(region)
        closed_regions.update(taken_now)

        # Passport: a country visited in every region, over all rounds so far.
        for name in names:
            if passport_round[name] is None:
                if all(letters & visited[name] for letters, _bonus in REGIONS.values()):
                    passport_round[name] = index

        for name in names:
            cards = drafts[name]
            chosen = (choices.get(name) or {}).get("treasures")
            per_round[name].append({
                "throw_catch": throw_catch(cards),
                "cuisine": cuisine(cards),
                "transport": transport(cards),
                "treasures": treasures(name, chosen, drafts),
                "regions": region_points[name],
                "passport": 0,
            })

    # Passport awards by place: every seat first qualifying in the same round shares the place.
    places = _common.race_places(passport_round)
    for name, place in places.items():
        per_round[name][passport_round[name]]["passport"] = passport_award(place, len(names))

    players = []
    totals = {}
    passport_totals = {}
    throw_catch_totals = {}
    for name in names:
        categories = {key: sum(r[key] for r in per_round[name]) for key in ROUND_KEYS}
        categories["sites"] = len(visited[name])  # 1 point per distinct country visited
        categories = {key: categories[key] for key in KEYS}
        total = sum(categories.values())
        totals[name] = total
        passport_totals[name] = categories["passport"]
        throw_catch_totals[name] = categories["throw_catch"]
        players.append({"name": name, "total": total, "categories": categories,
                        "rounds": per_round[name]})

    return {"players": players,
            "winners": _common.winners(names, totals, [passport_totals, throw_catch_totals])}
