"""Hand-written scorer for Boomerang: Australia (Grail Games 2020, rules per /work/shared/DESIGN.md).

score(record) -> score sheet; the record and sheet formats are described in _common.py.
"""

from . import _common

# ---- rules: icon values (rulebook) -------------------------------------------------------------
COLLECTION_VALUES = {"Leaves": 1, "Wildflowers": 2, "Shells": 3, "Souvenirs": 5}
ANIMAL_VALUES = {"Kangaroos": 3, "Emus": 4, "Wombats": 5, "Koalas": 7, "Platypuses": 9}
ACTIVITIES = ("Indigenous Culture", "Sightseeing", "Bushwalking", "Swimming")
REGION_BONUS = 3

KEYS = ("throw_catch", "collections", "animals", "activities", "sites", "regions")
ROUND_KEYS = tuple(k for k in KEYS if k != "sites")

# ---- card data ---------------------------------------------------------------------------------
# CARDS[letter] = {"number": int, "collection": str|None, "animal": str|None, "activity": str|None}
CARDS = {}
for _row in _common.read_csv("australia-cards.csv"):
    _card = {"number": int(_row["number"]), "collection": None, "animal": None, "activity": None}
    if _row["collection"] != "none":
        _card["collection"] = _row["collection"]
        assert COLLECTION_VALUES[_row["collection"]] == int(_row["collection_value"])
    if _row["animal"] != "none":
        _card["animal"] = _row["animal"]
        assert ANIMAL_VALUES[_row["animal"]] == int(_row["animal_value"])
    if _row["activity"] != "none":
        assert _row["activity"] in ACTIVITIES
        _card["activity"] = _row["activity"]
    CARDS[_row["letter"]] = _card
assert len(CARDS) == 28

# REGIONS[name] = set of letters
REGIONS = {}
for _row in _common.read_csv("australia-regions.csv"):
    REGIONS[_row["region"]] = set(_row["letters"].split(";"))
    assert int(_row["region_bonus"]) == REGION_BONUS


# ---- categories of one round -------------------------------------------------------------------
def throw_catch(cards):
    """|Throw number - Catch number|; Throw is the first card drafted, Catch the last."""
    return abs(CARDS[cards[0]]["number"] - CARDS[cards[-1]]["number"])


def collections(cards):
    """Sum of the collection values; doubled when the sum is 7 or less."""
    total = 0
    for letter in cards:
        kind = CARDS[letter]["collection"]
        if kind is not None:
            total += COLLECTION_VALUES[kind]
    if total <= 7:
        return total * 2
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


# ---- public goals (editions/variants/australia-public-goals.yaml), each by hand ---------------------
def _regions_visited(visited):
    return sum(1 for letters in REGIONS.values() if letters & visited)


GOALS = {
    # 2 points for each region you visited a site of
    "well-travelled": lambda me, others: 2 * _regions_visited(me),
    # 2 points for each kind of animal your visited sites show
    "wildlife-spotter": lambda me, others: 2 * len({CARDS[x]["animal"] for x in me} - {None}),
    # 5 points if you visited more sites than every other player
    "globetrotter": lambda me, others: 5 if all(len(me) > len(o) for o in others) else 0,
    # 6 points if your visited sites show Shells at least twice
    "beachcomber": lambda me, others: 6 if sum(CARDS[x]["collection"] == "Shells" for x in me) >= 2 else 0,
    # 3 points for each Tasmania site you visited
    "island-hopper": lambda me, others: 3 * len(me & REGIONS["Tasmania"]),
}


# ---- the whole game ----------------------------------------------------------------------------
def score(record):
    names = list(record["players"])
    rounds = record["rounds"]
    assert len(rounds) == 4

    per_round = {name: [] for name in names}
    visited = {name: set() for name in names}
    closed_regions = set()  # regions whose bonus was taken in an earlier round

    for rnd in rounds:
        drafts = rnd["drafts"]
        choices = rnd.get("choices") or {}
        for name in names:
            visited[name].update(drafts[name])

        # Regions: every seat that has now visited all of a still-open region scores its bonus.
        completed_now = {name: [] for name in names}
        for region, letters in REGIONS.items():
            if region in closed_regions:
                continue
            for name in names:
                if letters <= visited[name]:
                    completed_now[name].append(region)
        for name in names:
            closed_regions.update(completed_now[name])

        for name in names:
            cards = drafts[name]
            chosen = (choices.get(name) or {}).get("activities")
            per_round[name].append({
                "throw_catch": throw_catch(cards),
                "collections": collections(cards),
                "animals": animals(cards),
                "activities": activities(cards, chosen),
                "regions": REGION_BONUS * len(completed_now[name]),
            })

    players = []
    totals = {}
    throw_catch_totals = {}
    for name in names:
        categories = {key: sum(r[key] for r in per_round[name]) for key in ROUND_KEYS}
        categories["sites"] = len(visited[name])  # 1 point per distinct site visited
        categories = {key: categories[key] for key in KEYS}
        drawn = {}
        if "goals" in record:  # the public goals variant: each goal drawn, on one line
            others = [visited[other] for other in names if other != name]
            drawn = {goal: GOALS[goal](visited[name], others) for goal in record["goals"]}
            categories["goals"] = sum(drawn.values())
        total = sum(categories.values())
        totals[name] = total
        throw_catch_totals[name] = categories["throw_catch"]
        players.append({"name": name, "total": total, "categories": categories,
                        "rounds": per_round[name], **({"goals": drawn} if "goals" in record else {})})

    return {"players": players,
            "winners": _common.winners(names, totals, [throw_catch_totals])}
