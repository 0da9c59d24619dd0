"""Bots: legal on every edition that loads, blind to what their seat cannot see, and scoring right.

Strength is measured by bench/tournament.py, not here: a test only checks what must always hold.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesengine import Game, load_edition
from rulesengine.bots.determinize import from_view
from rulesengine.bots.evaluate import round_values, standing_from_view
from rulesengine.bots.one_ply import GREEDY_EFFECTS
from rulesengine.bots.registry import BOTS, RandomAgent, agent_seed, make_bot
from rulesengine.bots.tournament import run_tournament, wilson
from rulesengine.edition.steps import BID, CLAIM, DECLARE, DISCARD, REDRAW
from rulesengine.errors import BoomError
from rulesengine.game.blocks import round_plan
from rulesengine.game.loop import play

ROOT = Path(__file__).resolve().parent.parent
# the searching bots at tiny budgets (the blend's greedy estimate at the greedy bot's 6 x 3, not its 24 x 6)
TINY = {"search": {"rollouts": 2}, "ismcts": {"iterations": 3}, "blend": {"rollouts": 2, "samples": 6,
                                                                          "completions": 3},
        "guided": {"iterations": 3, "samples": 6, "completions": 3}}


def loadable_editions() -> list[Path]:
    """Every edition file under editions/ that loads (others are being written by someone else)."""
    paths = []
    for path in sorted((ROOT / "editions").rglob("*.yaml")):
        try:
            load_edition(path)
        except BoomError:
            continue
        paths.append(path)
    return paths


EDITIONS = loadable_editions()
DRAFTING = [p for p in EDITIONS if round_plan(load_edition(p)).scores_rounds]  # the 2010 round: tests/test_flow.py
_LOADED: dict = {}


def edition_of(path: Path):
    if path not in _LOADED:
        _LOADED[path] = load_edition(path)
    return _LOADED[path]


def bot(kind, edition, seed):
    return make_bot(kind, edition, seed, **TINY.get(kind, {}))


class Referee:
    """Wraps a bot: it must be handed a view (a dict), never the game, and answer a legal option."""

    def __init__(self, agent):
        self.agent = agent
        self.decisions = 0

    def decide(self, view, decision):
        assert isinstance(view, dict) and view["seat"] == decision.seat
        answer = self.agent.decide(view, decision)
        assert answer in decision.options, (self.agent.kind, decision, answer)
        self.decisions += 1
        return answer


def test_some_editions_load():
    names = {p.stem for p in EDITIONS}
    assert "australia" in names


@pytest.mark.parametrize("path", DRAFTING, ids=lambda p: p.stem)
@settings(
    max_examples=6, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**31 - 1), data=st.data())
def test_bots_only_make_legal_decisions(path, seed, data):
    edition = edition_of(path)
    seatings = [n for n in range(edition.players_min, min(edition.players_max, 4) + 1) if edition.draft.fits(n)]
    players = data.draw(st.sampled_from(seatings), label="players")
    kinds = data.draw(st.lists(st.sampled_from(sorted(BOTS)), min_size=players, max_size=players), label="kinds")
    referees = [Referee(bot(kind, edition, agent_seed(seed, s))) for s, kind in enumerate(kinds)]
    game = play(Game(edition, [f"p{i}" for i in range(players)], seed), referees)
    assert game.over and len(game.history) == edition.rounds
    assert all(r.decisions >= edition.rounds * (edition.hand_size - 1) for r in referees)


@pytest.mark.parametrize("kind", sorted(BOTS))
def test_every_bot_plays_every_edition_at_every_player_count(kind):
    for path in EDITIONS:
        edition = edition_of(path)
        for players in range(edition.players_min, edition.players_max + 1):
            seed = players * 31 + len(path.stem)
            game = play(
                Game(edition, [f"p{i}" for i in range(players)], seed),
                [Referee(bot(kind, edition, agent_seed(seed, s))) for s in range(players)],
            )
            assert game.over


def states(edition, players, seed):
    """(game, seat) at every Throw, draft and choice of a random game, as deep copies by replay."""
    game = Game(edition, [f"p{i}" for i in range(players)], seed)
    agents = [RandomAgent(agent_seed(seed, s)) for s in range(players)]
    while not game.over:
        for decision in game.pending():
            yield game, decision
            game.apply(
                decision.seat, agents[decision.seat].decide(game.view(decision.seat), decision), decision.category
            )


@pytest.mark.parametrize("path", DRAFTING[:4], ids=lambda p: p.stem)
@pytest.mark.parametrize("kind", ["greedy1", "greedy", "search", "ismcts", "blend", "guided"])
def test_a_decision_does_not_depend_on_cards_the_seat_cannot_see(path, kind):
    """Two games whose views for the seat are identical but whose hidden cards differ get the same answer."""
    edition = edition_of(path)
    players = min(edition.players_max, 3)
    checked = differed = 0
    for index, (game, decision) in enumerate(states(edition, players, 11)):
        if index % 5 or decision.kind == "choice" and index % 2:
            continue
        seat = decision.seat
        view = game.view(seat)
        twins = [from_view(edition, view, random.Random(k)) for k in (1, 2)]
        hidden = [[list(h) for h in g.places.hands] + [d[:1] for d in g.places.drafts] for g in twins]
        assert all(g.view(seat) == view for g in twins)
        differed += hidden[0] != hidden[1]
        agent = bot(kind, edition, 5)
        answers = {
            agent.decide(g.view(seat), d)
            for g in [game, *twins]
            for d in g.pending()
            if d.seat == seat and d.category == decision.category
        }
        assert len(answers) == 1, (decision, answers)
        checked += 1
    assert checked > 5 and differed > 0


def test_a_bot_is_replayable_from_its_seed(australia):
    game = Game(australia, ["a", "b", "c"], 4)
    for _ in range(5):
        for decision in game.pending():
            game.apply(decision.seat, decision.options[0], decision.category)
    view, decision = game.view(0), game.pending()[0]
    for kind in ("greedy1", "greedy", "search", "ismcts", "blend", "guided"):
        assert bot(kind, australia, 9).decide(view, decision) == bot(kind, australia, 9).decide(view, decision)


@pytest.mark.parametrize("path", DRAFTING, ids=lambda p: p.stem)
def test_round_values_agree_with_the_score_sheet(path):
    """The bots' scoring of a finished round equals the engine's: categories, races, game-end gain."""
    edition = edition_of(path)
    players = edition.players_max
    game = play(
        Game(edition, [f"p{i}" for i in range(players)], 3), [RandomAgent(agent_seed(3, s)) for s in range(players)]
    )
    sheet = game.scores.sheet()["players"]
    view = game.view(0)
    for r, round_data in enumerate(game.history):
        standing = standing_from_view(edition, dict(view, history=view["history"][:r]))
        drafts = [[edition.card(x) for x in round_data["drafts"][name]] for name in game.players]
        choices = [round_data["choices"].get(name, {}) for name in game.players]
        values = round_values(standing, drafts, choices)
        after = standing_from_view(edition, dict(view, history=view["history"][: r + 1]))
        for seat in range(players):
            counted = sum(sheet[seat]["rounds"][r].get(key, 0) for key in edition.counting_keys)  # not counts: false
            expected = counted + after.seats[seat].end_points - standing.seats[seat].end_points
            assert values[seat] == expected, (r, seat)


def test_greedy_takes_the_best_choice_and_keeps_once_per_game_icons(australia):
    greedy = make_bot("greedy", australia, 1)
    for game, decision in states(australia, 2, 8):
        if decision.kind != "choice":
            continue
        view = game.view(decision.seat)
        answer = greedy.decide(view, decision)
        assert answer is None or answer in decision.options
        if answer is not None:
            assert answer not in view["used_choices"].get(decision.category, [])


def test_wilson_interval():
    low, high = wilson(60, 100)
    assert round(low, 4) == 0.5020 and round(high, 4) == 0.6906
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0


def test_tournament_rotates_seats_and_counts_every_game():
    path = ROOT / "editions" / "australia.yaml"
    result = run_tournament(str(path), ["random", "random", "random"], 6, seed=2)
    assert result.games == 6
    assert sum(e.wins for e in result.entries) == pytest.approx(6)
    again = run_tournament(str(path), ["random", "random", "random"], 6, seed=2, jobs=2)
    assert [e.wins for e in again.entries] == [e.wins for e in result.entries]
    assert [e.points for e in again.entries] == [e.points for e in result.entries]


@pytest.mark.parametrize("path", EDITIONS, ids=lambda p: p.stem)
def test_a_tournament_games_wins_are_its_score_sheets(path):
    """play_one reads a unique best total as the winner without the tie-breaks (the ranking's first rule), and
    asks the sheet's ranking otherwise (ties, teams): each entry's share is the sheet's, on every edition."""
    from rulesengine.bots.tournament import play_one

    edition = load_edition(path)
    n = max(edition.players_min, min(4, edition.players_max))
    kinds, names = ("random",) * n, [f"P{seat + 1}" for seat in range(n)]
    ties = 0
    for number in range(40):
        wins, points = play_one(edition, kinds, number, 5, {})
        agents = [make_bot("random", edition, agent_seed(5 + number, seat)) for seat in range(n)]
        scores = play(Game(edition, names, 5 + number, events=False), agents).scores
        winners = scores.ranking().winners
        by_entry = sorted(range(n), key=lambda seat: (seat - number) % n)   # the seat of each line-up entry
        assert wins == [1 / len(winners) if seat in winners else 0.0 for seat in by_entry]
        assert points == [scores.total(seat) for seat in by_entry]
        ties += len(winners) > 1 or edition.draft.teams
    assert path.stem != "australia-teams" or ties == 40


def test_seat_values_are_remembered_except_the_categories_that_read_others(australia):
    from rulesengine.bots.evaluate import breakdown, seat_value, standing_from_scores
    from rulesengine.game.scoring import ScoreKeeper

    europe = load_edition(ROOT / "editions" / "europe.yaml")
    treasures = next(c for c in europe.categories if c.key == "treasures")
    assert treasures.score.variables >= {"others", "choice", "players"}
    assert next(c for c in australia.categories if c.key == "sites").score.variables == {"visited"}
    assert [c.key for c in standing_from_scores(europe, ScoreKeeper(europe, ["a", "b"])).shared] == ["treasures"]
    standing = standing_from_scores(australia, ScoreKeeper(australia, ["a", "b"]))
    assert not standing.shared
    mine, others = [australia.card(x) for x in "YVWA"], [australia.card(x) for x in "CDG"]  # Throw 7, Catch 1
    first = seat_value(standing, 0, mine, others)
    assert first == sum(breakdown(standing, 0, mine, others).values()) == seat_value(standing, 0, mine, [])
    assert len(standing.memo) == 1
    swapped = mine[1:] + mine[:1]  # Throw 2, Catch 7
    assert (
        seat_value(standing, 0, swapped, others) == sum(breakdown(standing, 0, swapped, others).values()) == first - 1
    )
    # Europe: the treasures read the other seats' cards, so the same hand is worth more beside more of them
    standing = standing_from_scores(europe, ScoreKeeper(europe, ["a", "b"]))
    treasure = next(icon for card in europe.cards for icon in card.icons if icon in treasures.choice.family.icon_set)
    holding = [card for card in europe.cards if treasure in card.icons]
    mine, many = holding[:1] + [c for c in europe.cards if c not in holding][:4], holding[1:]
    assert many and seat_value(standing, 0, mine, many) > seat_value(standing, 0, mine, [])
    for others in ([], many):
        assert seat_value(standing, 0, mine, others) == sum(breakdown(standing, 0, mine, others).values())


@pytest.mark.parametrize("name", ["australia-mulligan", "australia-declared-activity", "australia-keep-one-discard-one",
                                  "boomerang-2010"])
def test_the_one_ply_bot_answers_all_but_its_picks_as_the_greedy_bot(name):
    """A mulligan, a declaration, a discard, a claim and a bid: the greedy bot's answer, from the same seed."""
    edition = edition_of(ROOT / "editions" / ("" if name == "boomerang-2010" else "variants") / f"{name}.yaml")
    asked = set()
    for game, decision in states(edition, edition.players_min, 8):
        effect = round_plan(edition).asks[decision.kind].effect
        if effect in GREEDY_EFFECTS:
            view = game.view(decision.seat)
            assert make_bot("greedy1", edition, 5).decide(view, decision) == make_bot("greedy", edition, 5).decide(
                view, decision)
            asked.add(effect)
    assert asked == {"australia-mulligan": {REDRAW}, "australia-declared-activity": {DECLARE},
                     "australia-keep-one-discard-one": {DISCARD}, "boomerang-2010": {CLAIM, BID}}[name]
