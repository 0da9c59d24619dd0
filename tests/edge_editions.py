"""Editions made to order, for the per-game guarantee (issue #32): one at the edge of each limit an
edition declares (docs/limits.md: 100 cards, 12 icons a card, 12 families of 24 icons, 26 regions,
24 categories, 12 races, 16 card sets and tables, 300 map paths, 12 players, 20 rounds, 20 cards a
hand), the others at the size of a shipped edition, each with the kinds of expressions the shipped
editions use (sums of icon values, pairs, lookups, choices, region races, paths, game-end lines)."""

from __future__ import annotations

from pathlib import Path

import yaml

SHIPPED = dict(cards=28, icons_per_card=2, families=3, icons_per_family=5, regions=7, categories=5, races=1,
               card_sets=1, tables=1, paths=0, players=4, rounds=4, hand=7)
LIMITS = dict(cards=100, icons_per_card=12, families=12, icons_per_family=24, regions=26, categories=24, races=12,
              card_sets=16, tables=16, paths=300, players=12, rounds=20, hand=20)


def edge_sizes() -> dict:
    """name -> the sizes of an edition at the edge of that limit, the rest as a shipped edition (with
    the cards a deal then needs: players x hand at most the deck); `work`: a category near the work
    budget of one evaluation (D210), which puts a greedy game near its limit too (M351) and makes the
    greedy bot sample fewer worlds."""
    out = {"work": dict(SHIPPED, cards=98, expensive=True)}
    for name, limit in LIMITS.items():
        sizes = dict(SHIPPED, **{name: limit})
        if name == "players":
            sizes.update(hand=8, cards=100)     # 12 x 8 = 96 cards dealt
        elif name == "hand":
            sizes.update(players=5, cards=100)  # 5 x 20
        elif name == "icons_per_card":
            sizes.update(families=3, icons_per_family=5)  # 12 of 15 icons on every card
        elif name == "paths":
            sizes.update(cards=100)
        out[name] = sizes
    return out


def edition_data(*, cards, icons_per_card, families, icons_per_family, regions, categories, races, card_sets,
                 tables, paths, players, rounds, hand, expensive=False, ident="edge") -> dict:
    """An edition of these sizes that validates."""
    family_keys = [f"f{i}" for i in range(families)]
    icons = {key: [f"F{i}I{j}" for j in range(icons_per_family)] for i, key in enumerate(family_keys)}
    every_icon = [icon for key in family_keys for icon in icons[key]]
    region_names = [f"R{i}" for i in range(regions)]
    letters = [f"C{i}" for i in range(cards)]
    deck = [
        {"letter": letter, "name": f"Site {i}", "region": region_names[i % regions], "number": 1 + i % 7,
         "icons": [every_icon[(i + k * 7) % len(every_icon)] for k in range(icons_per_card)]}
        for i, letter in enumerate(letters)
    ]
    for card in deck:  # distinct icons on a card
        card["icons"] = list(dict.fromkeys(card["icons"]))
        extra = (icon for icon in every_icon if icon not in card["icons"])
        while len(card["icons"]) < icons_per_card:
            card["icons"].append(next(extra))
    data = {
        "format": 1, "id": ident, "name": f"Edge ({ident})",
        "players": {"min": 2, "max": players}, "rounds": rounds, "hand_size": hand,
        "passing": {"directions": ["left", "right"], "catch": "same"},
        "families": {key: {"title": f"Family {key}",
                           "icons": ({icon: 1 + j % 9 for j, icon in enumerate(icons[key])} if i == 0
                                     else icons[key])}
                     for i, key in enumerate(family_keys)},
        "regions": [{"name": name, "bonus": 3} for name in region_names],
        "cards": deck,
        "card_sets": {f"set{i}": letters[i:i + 5] or letters[:5] for i in range(card_sets)},
        "tables": {f"t{i}": {n: n * (i + 1) for n in range(1, 7)} for i in range(tables)},
    }
    if paths:
        data["map"] = {"paths": [[letters[i % cards], letters[(i * 7 + 1 + i // cards) % cards]]
                                 for i in range(paths)]}
        data["map"]["paths"] = [p for p in data["map"]["paths"] if p[0] != p[1]]
        seen, unique = set(), []
        for a, b in data["map"]["paths"]:
            if frozenset((a, b)) not in seen:
                seen.add(frozenset((a, b)))
                unique.append([a, b])
        data["map"]["paths"] = unique
    valued, plain = family_keys[0], family_keys[-1] if families > 1 else None
    scores = [
        f"sum([value(i) for i in icons(cards, {valued})])",
        f"sum([value(k) * (count(k, cards) // 2) for k in kinds({valued})])",
        "abs(throw.number - catch.number)",
        f"len([c for c in cards if c.region == '{region_names[0]}'])",
        "lookup(t0, len(cards), 0)" if tables else "len(cards)",
        f"if intersects(cards, set{0}) then 2 else 0" if card_sets else "1",
        f"count('{every_icon[0]}', others) // 3",
        "if previous > 10 then 0 else len(cards)",
        # what a seat reads of the table and of the sheet so far (#29)
        "len([s for s in opponents if len(s.cards) > len(cards)]) + len(left.visited) - len(right.cards)",
        "if standing > 1 then sum(round_totals) // 10 else 0",
        "(max(totals) - first(totals)) // 20",
    ]
    if paths:
        scores.append(f"if connected(visited, ['{letters[0]}'], ['{letters[1]}']) then 5 else 0")
    data["categories"] = []
    for i in range(categories):
        category = {"key": f"c{i}", "title": f"Category {i}", "score": scores[i % len(scores)]}
        if i == 3 and plain is not None:
            category = {"key": f"c{i}", "title": f"Category {i}", "choice": {"from": plain, "once_per_game": True,
                        "requires": "count(choice, cards) >= 1"}, "score": "lookup(t0, count(choice, cards), 0)"
                        if tables else "count(choice, cards)"}
        data["categories"].append(category)
    if expensive:  # every card visited against every card: some 71,000 steps an evaluation with 98 cards
        pairs = "sum([len([d for d in deck if d.number == c.number]) for c in deck if c in visited]) // 100"
        data["categories"].append({"key": "pairs", "title": "Pairs", "score": pairs})
    data["categories"].append({"key": "sites", "title": "Sites", "when": "game_end",
                               "score": "len(visited) + sum(lines.regions) // 10 + len(round_totals)"})
    if len(data["categories"]) > LIMITS["categories"]:
        data["categories"].pop(0)
    data["races"] = [{"key": "regions", "title": "Regions", "each": "region",
                      "qualifies": "subset(region.cards, visited)",
                      "award": "if place == 1 then region.bonus // sharing else 0"}]
    for i in range(1, races):
        data["races"].append({"key": f"race{i}", "title": f"Race {i}", "qualifies": f"len(visited) >= {i + 3}",
                              "award": "if place == 1 then 3 else 1"})
    return data


def write(folder: Path, name: str, data: dict) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


class Metered:
    """A bot whose decisions' charged steps (dsl/meter.py: what either runner counts as it evaluates) are
    written down in `spent`, one a decision."""

    def __init__(self, agent, spent: list):
        self.agent, self.spent = agent, spent

    def decide(self, view, decision):
        from rulesengine.dsl.meter import METER

        before = METER.spent
        answer = self.agent.decide(view, decision)
        self.spent.append(METER.spent - before)
        return answer

    def __getattr__(self, name):
        return getattr(self.agent, name)


def counted_game(edition, players: int, seed: int, spent: list | None = None) -> tuple[object, int]:
    """One game of greedy seats played with the reference runner, which runs every evaluation through its
    expression's run (the compiled program places several in one function), and the steps it took: each
    evaluation counted at its worst case (edition.guarantee.evaluation_steps), the unit of the per-game
    guarantee. Returns the game and the steps; `spent`, if given, gets the steps each decision charged.
    The edition is loaded again from its file with the reference runner: the runner is chosen when the
    expressions are compiled (a copy with runner="reference" ran the generated expressions inside the
    reference program: 35,898 steps instead of 74,858 in the `cards` edition's game)."""
    from rulesengine import Game, load_edition
    from rulesengine.bots.greedy import GreedyAgent
    from rulesengine.bots.registry import agent_seed
    from rulesengine.edition.guarantee import evaluation_steps
    from rulesengine.game.loop import play

    edition = load_edition(edition.file, runner="reference")   # every expression interpreted
    costs = evaluation_steps(edition)
    counted = [0]
    expressions = [c.score for c in edition.categories] + [c.choice.requires for c in edition.choice_categories]
    expressions += [e for r in edition.races for e in (r.qualifies, r.award)]
    expressions += [s.until for s in edition.round.steps if hasattr(s, "until")]
    originals = {}
    for expression in expressions:
        if expression is None or id(expression) in originals:
            continue
        run, cost = expression.run, costs[id(expression)]
        originals[id(expression)] = (expression, run)

        def counting(env, run=run, cost=cost):
            counted[0] += cost
            return run(env)

        object.__setattr__(expression, "run", counting)
    try:
        game = Game(edition, [f"P{seat}" for seat in range(players)], seed)
        agents = [GreedyAgent(agent_seed(seed, seat), edition) for seat in range(players)]
        play(game, agents if spent is None else [Metered(agent, spent) for agent in agents])
    finally:
        for expression, run in originals.values():
            object.__setattr__(expression, "run", run)
    return game, counted[0]


def bidding_edition(folder: Path, players: int = LIMITS["players"]) -> Path:
    """The 2010 game (a reveal, a secret choice, a bidding, a claim, until its deck of 54 is empty) with
    `players` seats and the most tokens a seat for which it still validates: every token of the table
    thrown once a round and each seat's secret choice and stop (Bidding.most_decisions), 2 x 54 + 1
    rounds at most, within MAX_GAME_DECISIONS; one token more is refused (M350)."""
    from rulesengine.edition.guarantee import MAX_GAME_DECISIONS

    rounds = 2 * 54 + 1
    tokens = (MAX_GAME_DECISIONS // rounds - 2 * players) // players
    shipped = Path(__file__).resolve().parent.parent / "editions" / "boomerang-2010.yaml"
    return write(folder, "bidding", {"extends": str(shipped), "id": "edge-bidding", "name": "Edge (bidding)",
                                     "players": {"min": 3, "max": players}, "stocks": {"boomerangs": tokens}})


def dense_data() -> dict:
    """The `work` edge edition whose costly category goes through the whole deck against the whole deck at
    every evaluation (98 + 98 x 98 = 9,702 charged steps), not only against the cards visited: the same work
    budget (it validates with the same guarantee), charged near its worst every time. What makes a searching
    bot's decision expensive: thousands of evaluations a world."""
    data = edition_data(**edge_sizes()["work"], ident="dense")
    pairs = next(category for category in data["categories"] if category["key"] == "pairs")
    pairs["score"] = pairs["score"].replace("if c in visited]", "if c in visited or c.number > 0]")
    return data
