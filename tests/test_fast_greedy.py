"""The batch's greedy seats play the greedy bot's policy, with the engine as the judge.

rulesengine/fast/greedy.py plays greedy seats in arrays with a random stream of its own, so a seed does
not give the engine's greedy game; what it must give is checked three ways, each against the engine:
- exactly: every hand a seat values at a pick is worth what the engine's greedy bot says
  (bots/evaluate.hand_values, on the engine's Standing of that game), every choice is the one
  bots/greedy.best_choice makes, and every game's sheet is the engine's for the game's decisions
  (replayed through the engine);
- statistically: over the same deals, the greedy batch's games and the engine's greedy games have the
  same mean points per sheet line and total, within the report's least noticeable change
  (simulate/words.MEASURES), by a paired equivalence test (two one-sided tests at 5%).
"""

from __future__ import annotations

import math

import pytest
from conftest import EDITIONS

from rulesengine import Game, load_edition
from rulesengine.bots.evaluate import hand_values, standing_from_scores
from rulesengine.bots.greedy import best_choice
from rulesengine.bots.registry import agent_seed, make_bot
from rulesengine.game.decisions import Decision
from rulesengine.game.loop import play
from rulesengine.game.scoring import ScoreKeeper
from rulesengine.simulate.words import MEASURES

batch = pytest.importorskip("rulesengine.fast.batch")
plans = pytest.importorskip("rulesengine.fast.plan")
greedy = pytest.importorskip("rulesengine.fast.greedy")

SHIPPED = sorted(EDITIONS.glob("*.yaml")) + sorted((EDITIONS / "variants").glob("*.yaml"))
NAMES = ["P1", "P2", "P3", "P4", "P5", "P6"]
# the shipped editions the batch plays with random seats whose greedy seats the engine plays, and why
GREEDY_FALLBACKS = {
    "australia-best-collections": "reads lines",
    "australia-best-three-rounds": "reads round_totals",
    "australia-double-last-round": "reads round_totals",
    "australia-follow-the-leader": "reads the other seats one by one",
    "australia-koala-majority": "reads the other seats one by one",
    "australia-rivalry": "reads the other seats one by one",
    "australia-wombat-majority": "reads opponents",
}


class _Scripted:
    """A seat that plays the decisions a batch game made: its cards in the order taken, its choices."""

    def __init__(self, edition, played, g: int, seat: int):
        self.edition, self.played, self.g, self.seat = edition, played, g, seat
        self.taken: dict = {}

    def decide(self, view, decision):
        r = decision.round - 1
        if decision.kind == "choice":
            keys = [key for key, _, category in self.played.plan.rounds if category is not None]
            c = keys.index(decision.category)
            family = next(cat for cat in self.edition.categories if cat.key == decision.category).choice.family
            icon = int(self.played.choices[self.g, r, self.seat, c])
            return family.icons[icon] if icon >= 0 else None
        k = self.taken.get(r, 0)
        self.taken[r] = k + 1
        return self.edition.cards[int(self.played.drafts[self.g, r, self.seat, k])].letter


def _replayed(edition, players: int, seed: int, played, g: int):
    agents = [_Scripted(edition, played, g, s) for s in range(players)]
    return play(Game(edition, NAMES[:players], seed, events=False), agents)


def _scores_before(edition, played, g: int, r: int, players: int) -> ScoreKeeper:
    """The engine's score keeper after the game's first r rounds as the batch played them."""
    scores = ScoreKeeper(edition, NAMES[:players])
    keys = [(key, category) for key, _, category in played.plan.rounds if category is not None]
    for before in range(r):
        drafts = [[edition.cards[int(i)] for i in played.drafts[g, before, s]] for s in range(players)]
        choices = []
        for s in range(players):
            made = {}
            for c, (key, category) in enumerate(keys):
                icon = int(played.choices[g, before, s, c])
                made[key] = category.choice.family.icons[icon] if icon >= 0 else None
            choices.append(made)
        scores.score_round(drafts, choices)
    return scores


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_a_greedy_batch_game_scores_as_the_engine_scores_its_decisions(path):
    edition = load_edition(path)
    if plans.fallback(edition) is not None:
        return
    reason = plans.greedy_fallback(edition)
    if path.stem in GREEDY_FALLBACKS:
        assert GREEDY_FALLBACKS[path.stem] in reason
        return
    assert reason is None
    for players in sorted({edition.players_min, min(4, edition.players_max)}):
        seeds = [3, 17, 2**40 + 1]
        played = batch.play(edition, players, seeds, seats=batch.GREEDY)
        for g, seed in enumerate(seeds):
            game = _replayed(edition, players, seed, played, g)
            sheet = game.scores.sheet()
            for r in range(edition.rounds):
                for s in range(players):
                    lines = sheet["players"][s]["rounds"][r]
                    assert {key: int(played.lines[g, s, r, k]) for k, key in enumerate(played.plan.line_keys)} == \
                        {key: lines.get(key, 0) for key in played.plan.line_keys}, (seed, r, s)
            assert [int(t) for t in played.totals[g]] == [p["total"] for p in sheet["players"]], seed
            assert played.valued[g] == edition.rounds * players * (edition.hand_size - 1)


class _Checked(greedy.GreedySeats):
    """Greedy seats that keep, of every valuation, a few hands and the values they were given."""

    keep_round_cards = True

    last = None   # the seats of the last batch played (the batch makes them)

    def __init__(self, *args):
        super().__init__(*args)
        self.seen = []
        _Checked.last = self

    def _values(self, r, k, seats):
        values = super()._values(r, k, seats)
        cards = greedy.HandCards(self.deck, seats.first, seats.mine, seats.head, seats.inside).cards
        lanes, heads, options = seats.inside.shape
        for lane in (0, lanes - 1):
            for row in (lane * heads * options, (lane + 1) * heads * options - 1, lane * heads * options + options):
                world = (row // options) % heads // greedy.COMPLETIONS
                self.seen.append((r, seats.start + lane, cards[row].tolist(),
                                  seats.round_cards[lane, world].tolist(), int(values[row])))
        return values


@pytest.mark.parametrize("name,players", [("australia", 4), ("europe", 4), ("europe", 2), ("usa", 2),
                                          ("variants/australia-two-decks", 3)])
def test_every_hand_a_greedy_seat_values_is_worth_what_the_engine_says(name, players):
    edition = load_edition(EDITIONS / f"{name}.yaml")
    seeds = [5, 11]
    played = batch.play(edition, players, seeds, seats=_Checked)
    checked = 0
    for r, lane, hand, round_cards, value in _Checked.last.seen:
        g, seat = divmod(lane, players)
        standing = standing_from_scores(edition, _scores_before(edition, played, g, r, players))
        cards = [edition.cards[i] for i in hand]
        others = [edition.cards[i] for i in round_cards if i not in hand]
        assert hand_values(standing, seat).one(cards, others) == value, (seeds[g], r, seat, hand)
        checked += 1
    assert checked >= 4 * edition.rounds * (edition.hand_size - 1)


@pytest.mark.parametrize("name,players", [("australia", 4), ("europe", 3), ("europe", 2), ("usa", 4)])
def test_every_choice_of_a_greedy_seat_is_the_greedy_bots(name, players):
    edition = load_edition(EDITIONS / f"{name}.yaml")
    seeds = [2, 9, 23]
    played = batch.play(edition, players, seeds, seats=batch.GREEDY)
    names = NAMES[:players]
    keys = [(key, category) for key, _, category in played.plan.rounds if category is not None]
    letter = [card.letter for card in edition.cards]
    made = 0
    for g, seed in enumerate(seeds):
        history = []
        for r in range(edition.rounds):
            drafts = {names[s]: [letter[i] for i in played.drafts[g, r, s]] for s in range(players)}
            scores = _scores_before(edition, played, g, r, players)
            cards = [[edition.cards[int(i)] for i in played.drafts[g, r, s]] for s in range(players)]
            choices = {name: {} for name in names}
            for s in range(players):
                view = {"players": names, "history": history, "seat": s,
                        "table": [{"face_up": drafts[name]} for name in names]}
                for c, (key, category) in enumerate(keys):
                    options = (*scores.choice_options(s, category, cards), None)
                    assert played.offered[g, r, s, c] == len(options), (seed, r, s, key)
                    icon = int(played.choices[g, r, s, c])
                    chosen = category.choice.family.icons[icon] if icon >= 0 else None
                    decision = Decision(s, "choice", r + 1, options, key)
                    assert best_choice(edition, view, decision) == chosen, (seed, r, s, key)
                    choices[names[s]][key] = chosen
                    made += chosen is not None
            history.append({"drafts": drafts, "choices": choices})
    assert made > len(seeds) * players   # icons were chosen, not only none


def _equivalent(differences: list) -> tuple[float, float, float]:
    """The mean of paired differences and its 90% interval (two one-sided tests at 5% each): equivalent
    within the margin when the interval lies inside (-margin, margin)."""
    n = len(differences)
    mean = sum(differences) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in differences) / (n - 1))
    half = 1.645 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


@pytest.mark.parametrize("name,players,games", [("australia", 4, 400), ("europe", 2, 300)])
def test_greedy_batch_games_score_as_the_engines_greedy_games_within_what_a_player_would_notice(name, players,
                                                                                                 games):
    """Same deals (the seeds): each sheet line's points per player, and the total, of the batch's greedy games and
    of the engine's differ by less than the report's least noticeable change (simulate/words.MEASURES: a line
    0.5 points or 10% of it, the total 1 point or 5%), at 5% each side."""
    edition = load_edition(EDITIONS / f"{name}.yaml")
    seeds = list(range(1000, 1000 + games))
    played = batch.play(edition, players, seeds, seats=batch.GREEDY)
    keys = list(played.plan.line_keys)
    by_line = {key: [] for key in keys}
    engine_lines = {key: [] for key in keys}
    totals, engine_totals = [], []
    for g, seed in enumerate(seeds):
        agents = [make_bot("greedy", edition, agent_seed(seed, s)) for s in range(players)]
        game = play(Game(edition, NAMES[:players], seed, events=False), agents)
        sheet = game.scores.sheet()
        for k, key in enumerate(keys):
            engine = sum(sum(r.get(key, 0) for r in p["rounds"]) for p in sheet["players"]) / players
            engine_lines[key].append(engine)
            by_line[key].append(float(played.lines[g, :, :, k].sum()) / players - engine)
        engine_totals.append(sum(p["total"] for p in sheet["players"]) / players)
        totals.append(float(played.totals[g].sum()) / players - engine_totals[-1])
    for key, differences in by_line.items():
        margin = MEASURES["points"].threshold(sum(engine_lines[key]) / games)
        mean, low, high = _equivalent(differences)
        assert -margin < low and high < margin, (key, margin, mean, low, high)
    margin = MEASURES["total"].threshold(sum(engine_totals) / games)
    mean, low, high = _equivalent(totals)
    assert -margin < low and high < margin, ("total", margin, mean, low, high)


def test_a_games_greedy_figures_are_fixed_by_its_seed_whichever_batch_plays_it():
    from rulesengine.simulate.batched import play_batch
    from rulesengine.simulate.games import Deal
    from rulesengine.simulate.shards import layout_of

    edition = load_edition(EDITIONS / "australia.yaml")
    layout = layout_of(edition, ("greedy",) * 3)
    deals = [Deal(seed, tuple((seat - seed) % 3 for seat in range(3)), seed % 3) for seed in range(40, 52)]
    together = play_batch(edition, layout, deals)
    apart = play_batch(edition, layout, deals[:5]) + play_batch(edition, layout, deals[5:])
    assert together == apart
    assert all(figures.play.valued == 4 * 3 * 6 and figures.play.spread > 0 for figures in together)
    assert len({figures.totals for figures in together}) == len(deals)


def test_a_simulation_with_greedy_seats_declares_the_batchs_random_stream():
    from rulesengine.simulate import Settings, report_data, run_simulation
    from rulesengine.simulate.batched import GREEDY_BATCH, GREEDY_STREAM

    australia = str(EDITIONS / "australia.yaml")
    simulation = run_simulation(Settings((australia,), ("greedy",) * 4, 60, 3))
    assert simulation.played_by == (GREEDY_BATCH,)
    (entry,) = report_data(simulation, with_versions=False)["editions"]
    assert entry["played_by"] == GREEDY_BATCH and entry["random_stream"] == GREEDY_STREAM
    by_engine = run_simulation(Settings((australia,), ("greedy",) * 4, 12, 3), engine=True)
    assert "random_stream" not in report_data(by_engine, with_versions=False)["editions"][0]
