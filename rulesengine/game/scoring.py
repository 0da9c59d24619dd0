"""The score sheet: turns each round's drafted cards and choices into points, races and a winner.

Shared by the engine (games played here) and the score pad (games played on a real table), so a
record scored twice gives the same sheet. It knows no edition: every rule comes from the Edition.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..dsl import DslRuntimeError
from ..edition.in_words import in_words
from ..edition.model import GAME_END, ROUND, Card, Category, Edition, Expression
from ..errors import Diagnostic, GameRuleError
from .ranking import Ranking, rank_seats


class ScoringError(GameRuleError):
    """An expression failed while a game was being scored (e.g. a missing table row)."""


def evaluate(expression: Expression, env: dict, situation: str):
    try:
        return expression.run(env)
    except DslRuntimeError as exc:
        node = exc.node
        span = expression.locate(node.start, node.end) if (node is not None and expression.locate) else None
        error = ScoringError(Diagnostic(span, f"{exc.message} ({situation})", "R501"))
        raise error.quoting(expression.texts or {}) from None
    except RecursionError:
        raise ScoringError(Diagnostic(None, f"expression too deep to evaluate ({situation})", "R502")) from None


@dataclass
class RaceState:
    places_given: int = 0
    winners: set = field(default_factory=set)


class ScoreKeeper:
    """Keeps every seat's score sheet across the rounds of one game."""

    def __init__(self, edition: Edition, players: list[str]):
        self.edition = edition
        self.players = list(players)
        n = len(players)
        self.visited: list[dict] = [dict() for _ in range(n)]     # card -> None, in order of visit
        self.rounds: list[list[dict]] = [[] for _ in range(n)]    # seat -> round -> key -> points
        self.used_choices: list[dict] = [{c.key: set() for c in edition.choice_categories} for _ in range(n)]
        self.races = {(race.key, region.name if race.each else None): RaceState()
                      for race in edition.races for region in (edition.regions if race.each else (None,))}
        self.end_scores: list[dict] | None = None
        self._sheet: dict | None = None

    @property
    def round_index(self) -> int:
        return len(self.rounds[0])

    def _env(self, seat: int, drafts: list[list[Card]], visited: list[Card]) -> dict:
        cards = drafts[seat]
        return {
            "cards": cards, "throw": cards[0], "catch": cards[-1],
            "others": [card for other, hand in enumerate(drafts) if other != seat for card in hand],
            "visited": visited, "players": len(self.players), "round": self.round_index + 1,
        }

    def _visited_after(self, seat: int, cards: list[Card]) -> list[Card]:
        seen = dict(self.visited[seat])
        for card in cards:
            seen.setdefault(card, None)
        return sorted(seen, key=lambda c: c.index)

    def _situation(self, seat: int, what: str) -> str:
        return f"round {self.round_index + 1}, seat {self.players[seat]}, {what}"

    def choice_options(self, seat: int, category: Category, drafts: list[list[Card]]) -> list[str]:
        """The icons this seat may pick for a choice category at the end of this round."""
        env = self._env(seat, drafts, self._visited_after(seat, drafts[seat]))
        options = []
        for icon in category.choice.family.icons:
            if category.choice.once_per_game and icon in self.used_choices[seat][category.key]:
                continue
            if category.choice.requires is not None:
                env["choice"] = icon
                if not evaluate(category.choice.requires, env, self._situation(seat, f"{category.key} requires")):
                    continue
            options.append(icon)
        return options

    def check_choice(self, seat: int, category: Category, icon: str, drafts: list[list[Card]]) -> str | None:
        """None when the choice is legal, else the reason it is not."""
        if icon not in category.choice.family.icon_set:
            return f"'{icon}' is not one of {', '.join(category.choice.family.icons)}"
        if category.choice.once_per_game and icon in self.used_choices[seat][category.key]:
            return f"'{icon}' was already scored for {category.key} in an earlier round"
        if icon not in self.choice_options(seat, category, drafts):
            rule = in_words(category.choice.requires.text, self.edition, category.title, {"choice": icon})
            return f"'{icon}' cannot be chosen for {category.title} this round: it may be chosen only when {rule}"
        return None

    def score_round(self, drafts: list[list[Card]], choices: list[dict]) -> list[dict]:
        """Score one round; drafts[seat] are the cards in the order taken, choices[seat] key -> icon."""
        edition = self.edition
        visited = [self._visited_after(seat, hand) for seat, hand in enumerate(drafts)]
        results = []
        for seat in range(len(drafts)):
            env = self._env(seat, drafts, visited[seat])
            points = {}
            for category in edition.categories:
                if category.when != ROUND:
                    continue
                env["previous"] = self.rounds[seat][-1].get(category.key, 0) if self.rounds[seat] else 0
                if category.choice is not None:
                    icon = choices[seat].get(category.key)
                    if icon is None:
                        points[category.key] = 0
                        continue
                    reason = self.check_choice(seat, category, icon, drafts)
                    if reason:
                        raise GameRuleError(Diagnostic(None, f"round {self.round_index + 1}, {self.players[seat]}: {reason}", "G601"))
                    env["choice"] = icon
                points[category.key] = evaluate(category.score, env, self._situation(seat, category.key))
            results.append(points)
        for seat in range(len(drafts)):
            for category in edition.choice_categories:
                icon = choices[seat].get(category.key)
                if icon is not None:
                    self.used_choices[seat][category.key].add(icon)
            self.visited[seat] = dict.fromkeys(visited[seat])
        self._run_races(drafts, visited, results)
        for seat, points in enumerate(results):
            self.rounds[seat].append(points)
        self._sheet = None
        return results

    def _run_races(self, drafts, visited, results):
        n = len(self.players)
        for race in self.edition.races:
            for region in (self.edition.regions if race.each else (None,)):
                state = self.races[(race.key, region.name if region else None)]
                qualifiers = []
                for seat in range(n):
                    if seat in state.winners:
                        continue
                    env = {"cards": drafts[seat], "visited": visited[seat], "players": n, "round": self.round_index + 1}
                    if region is not None:
                        env["region"] = region
                    if evaluate(race.qualifies, env, self._situation(seat, race.key)):
                        qualifiers.append(seat)
                for seat in range(n):
                    results[seat].setdefault(race.key, 0)
                if not qualifiers:
                    continue
                state.places_given += 1
                env = {"place": state.places_given, "players": n, "round": self.round_index + 1}
                if region is not None:
                    env["region"] = region
                award = evaluate(race.award, env, f"round {self.round_index + 1}, {race.key}")
                for seat in qualifiers:
                    state.winners.add(seat)
                    results[seat][race.key] += award

    def finish(self) -> None:
        self._sheet = None
        self.end_scores = []
        n = len(self.players)
        for seat in range(n):
            visited = sorted(self.visited[seat], key=lambda c: c.index)
            env = {"visited": visited, "players": n}
            self.end_scores.append({c.key: evaluate(c.score, env, f"game end, seat {self.players[seat]}, {c.key}")
                                    for c in self.edition.categories if c.when == GAME_END})

    def category_totals(self, seat: int) -> dict:
        totals = {key: 0 for key in self.edition.sheet_keys}
        for points in self.rounds[seat]:
            for key, value in points.items():
                totals[key] += value
        for key, value in (self.end_scores[seat] if self.end_scores else {}).items():
            totals[key] = value
        return totals

    def total(self, seat: int) -> int:
        return sum(self.category_totals(seat).values())

    def ranking(self) -> Ranking:
        seats = range(len(self.players))
        totals = [self.category_totals(s) for s in seats]
        return rank_seats([sum(t.values()) for t in totals], totals, self.edition.tie_breaks)

    def winners(self) -> list[int]:
        return list(self.ranking().winners)

    def sheet(self) -> dict:
        """The score sheet as data: the shape `boom score --format json` prints (a fresh copy)."""
        if self._sheet is None:
            self._sheet = self._make_sheet()
        return {
            "players": [dict(p, categories=dict(p["categories"]), rounds=[dict(r) for r in p["rounds"]]) for p in self._sheet["players"]],
            "winners": list(self._sheet["winners"]),
            "ranking": [dict(place) for place in self._sheet["ranking"]],
            "decided_by": dict(self._sheet["decided_by"]) if self._sheet["decided_by"] else None,
        }

    def _make_sheet(self) -> dict:
        players = []
        for seat, name in enumerate(self.players):
            players.append({
                "name": name,
                "total": self.total(seat),
                "categories": self.category_totals(seat),
                "rounds": [dict(points) for points in self.rounds[seat]],
            })
        if self.end_scores is None:
            return {"players": players, "winners": [], "ranking": [], "decided_by": None}
        ranking = self.ranking()
        decider = ranking.decided_by
        titles = {c.key: c.title for c in self.edition.categories} | {r.key: r.title for r in self.edition.races}
        return {
            "players": players,
            "winners": [self.players[seat] for seat in ranking.winners],
            "ranking": [{"rank": p.rank, "name": self.players[p.seat], "shared": p.shared} for p in ranking.places],
            "decided_by": None if decider is None else {
                "key": decider.key, "title": titles.get(decider.key, decider.key),
                "winner": decider.winner, "runner_up": decider.runner_up,
            },
        }
