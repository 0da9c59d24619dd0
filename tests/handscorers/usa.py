"""Hand-written scorer for Boomerang: USA (Grail Games / Matagot 2020, rules per
/work/shared/DESIGN.md).

score(record) -> score sheet; the record and sheet formats are described in _common.py.
"""

from . import _common

# ---- rules: icon values (rulebook) -------------------------------------------------------------
AMERICANA_VALUES = {"Mail box": 1, "Baseball cap": 2, "Football jersey": 3, "US flag": 5}
ANIMAL_VALUES = {"Trout": 3, "Cattle": 4, "Grizzly": 5, "Bald eagle": 7, "Bigfoot": 9}
ACTIVITIES = ("Sightseeing", "Sporting events", "Hiking", "Dining")
REGION_BONUS = 3


def coast_to_coast_award(place, player_count):
    """West-to-east chain: 7 for the first, 3 for the second, 1 for the others (3-4 players)."""
    if place == 1:
        return 7
    if place == 2:
        return 3
    if player_count >= 3:
        return 1
    return 0


KEYS = ("throw_catch", "americana", "animals", "activities", "sites", "regions", "coast_to_coast")
ROUND_KEYS = tuple(k for k in KEYS if k != "sites")

# ---- card data ---------------------------------------------------------------------------------
# CARDS[letter] = {"number": int, "region": str, "americana": str|None, "animal": str|None,
#                  "activity": str|None}
CARDS = {}
for _row in _common.read_csv("usa-deck.csv"):
    _card = {"number": int(_row["number"]), "region": _row["region"],
             "americana": None, "animal": None, "activity": None}
    for _family, _icon in ((_row["icon_1_family"], _row["icon_1"]),
                           (_row["icon_2_family"], _row["icon_2"])):
        if _family == "americana":
            assert _icon in AMERICANA_VALUES
            _card["americana"] = _icon
        elif _family == "animal":
            assert _icon in ANIMAL_VALUES
            _card["animal"] = _icon
        elif _family == "activity":
            assert _icon in ACTIVITIES
            _card["activity"] = _icon
        else:
            raise AssertionError(f"unknown icon family {_family!r}")
    CARDS[_row["letter"]] = _card
assert len(CARDS) == 28

# Towns: regions (4 towns each) and coasts.
REGIONS = {}
WEST_COAST = set()
EAST_COAST = set()
for _row in _common.read_csv("usa-towns.csv"):
    REGIONS.setdefault(_row["region"], set()).add(_row["letter"])
    if _row["coast"] == "west":
        WEST_COAST.add(_row["letter"])
    elif _row["coast"] == "east":
        EAST_COAST.add(_row["letter"])
    else:
        assert _row["coast"] == "none"
    assert CARDS[_row["letter"]]["region"] == _row["region"]

# Paths between towns (both directions).
NEIGHBOURS = {letter: set() for letter in CARDS}
for _row in _common.read_csv("usa-map.csv"):
    NEIGHBOURS[_row["town_a"]].add(_row["town_b"])
    NEIGHBOURS[_row["town_b"]].add(_row["town_a"])


# ---- categories of one round -------------------------------------------------------------------
def throw_catch(cards):
    """The Throw number if the Catch number is at least as high, else 0."""
    throw = CARDS[cards[0]]["number"]
    catch = CARDS[cards[-1]]["number"]
    if catch >= throw:
        return throw
    return 0


def americana_sum(cards):
    total = 0
    for letter in cards:
        kind = CARDS[letter]["americana"]
        if kind is not None:
            total += AMERICANA_VALUES[kind]
    return total


def animals(cards):
    """Each pair of the same animal scores that animal's value once."""
    icons = [CARDS[letter]["animal"] for letter in cards if CARDS[letter]["animal"] is not None]
    return _common.pair_points(icons, ANIMAL_VALUES)


def activities(cards, chosen):
    """Optional: the chosen activity's icon count on the round's cards -> 0/0/2/4/7/10/15."""
    if chosen is None:
        return 0
    count = sum(1 for letter in cards if CARDS[letter]["activity"] == chosen)
    return _common.activity_points(count)


def crosses_the_country(visited):
    """True if the visited towns hold a chain of paths (both ends visited) from a west-coast
    town to an east-coast town."""
    reached = set(WEST_COAST & visited)
    todo = list(reached)
    while todo:
        town = todo.pop()
        for other in NEIGHBOURS[town]:
            if other in visited and other not in reached:
                reached.add(other)
                todo.append(other)
    return bool(reached & EAST_COAST)


# ---- the whole game ----------------------------------------------------------------------------
def score(record):
    names = list(record["players"])
    rounds = record["rounds"]
    assert len(rounds) == 4

    per_round = {name: [] for name in names}
    visited = {name: set() for name in names}
    closed_regions = set()  # regions whose bonus was taken in an earlier round
    coast_round = {name: None for name in names}  # round index in which the seat first qualified
    americana_bar = {name: 0 for name in names}  # the seat's Americana score of the previous round

    for index, rnd in enumerate(rounds):
        drafts = rnd["drafts"]
        choices = rnd.get("choices") or {}
        for name in names:
            visited[name].update(drafts[name])

        # Regions: every seat that has now visited all 4 towns of a still-open region scores 3.
        completed_now = {name: [] for name in names}
        for region, letters in REGIONS.items():
            if region in closed_regions:
                continue
            for name in names:
                if letters <= visited[name]:
                    completed_now[name].append(region)
        for name in names:
            closed_regions.update(completed_now[name])

        # Coast to coast, over all rounds so far.
        for name in names:
            if coast_round[name] is None and crosses_the_country(visited[name]):
                coast_round[name] = index

        for name in names:
            cards = drafts[name]
            chosen = (choices.get(name) or {}).get("activities")

            # Americana: the sum scores only if strictly greater than last round's score.
            total = americana_sum(cards)
            americana = total if total > americana_bar[name] else 0
            americana_bar[name] = americana

            per_round[name].append({
                "throw_catch": throw_catch(cards),
                "americana": americana,
                "animals": animals(cards),
                "activities": activities(cards, chosen),
                "regions": REGION_BONUS * len(completed_now[name]),
                "coast_to_coast": 0,
            })

    # Coast-to-coast awards by place: every seat first qualifying in the same round shares it.
    places = _common.race_places(coast_round)
    for name, place in places.items():
        per_round[name][coast_round[name]]["coast_to_coast"] = coast_to_coast_award(place, len(names))

    players = []
    totals = {}
    coast_totals = {}
    throw_catch_totals = {}
    for name in names:
        categories = {key: sum(r[key] for r in per_round[name]) for key in ROUND_KEYS}
        categories["sites"] = len(visited[name])  # 1 point per distinct town visited
        categories = {key: categories[key] for key in KEYS}
        total = sum(categories.values())
        totals[name] = total
        coast_totals[name] = categories["coast_to_coast"]
        throw_catch_totals[name] = categories["throw_catch"]
        players.append({"name": name, "total": total, "categories": categories,
                        "rounds": per_round[name]})

    return {"players": players,
            "winners": _common.winners(names, totals, [coast_totals, throw_catch_totals])}
