"""The verdict: three to six sentences a designer reads first, each backed by figures of the report.

It reads the report's data only (never games or tallies), so every number it prints is a figure
of report.json; each sentence carries the places of those figures (`backing`: a path into the data
and the value there) and a test holds the words to them. It speaks the players' language: sheet
lines and cards by their titles and names, shares as percentages, a change only when the paired
test flags it *and* it is at least the practical threshold of words.MEASURES.
"""

from __future__ import annotations

from .words import CORRELATION_CHANGE, DOMINANT_CARD, DOMINANT_GAP, DOMINANT_LINE, MEASURES, amount, p_value

STEADY = ("win.position", "tie", "margin", "lead_changes", "late_leader_lost", "drama", "decisiveness", "decisions")
MOST_NAMED = 3  # changes named in the first sentence
# the order in which changes are named: what players feel first (who wins, what scores), raw points last
FIRST_NAMED = ("share.", "win.position", "margin", "tie", "late_leader_lost", "drama", "decisiveness", "lead_changes")


def _at(data: dict, path: list):
    for step in path:
        data = data[step]
    return data


class _Sentence:
    """A sentence being written, and the figures it quotes."""

    def __init__(self, data: dict):
        self.data, self.parts, self.backing = data, [], []

    def quote(self, path: list) -> float:
        value = _at(self.data, path)
        self.backing.append({"figure": list(path), "value": value})
        return value

    def done(self, text: str) -> dict:
        return {"text": text, "backing": self.backing}


def verdict(data: dict) -> list[dict]:
    """The sentences of the verdict: [{"text", "backing": [{"figure": path, "value"}]}]."""
    last = len(data["figures"]) - 1
    sentences = [_changes(data), _steady(data)] if "comparison" in data else [_carried(data, last)]
    sentences += [_lines(data, last), _seats(data, last), _cards(data, last)]
    if "comparison" not in data:
        sentences.append(_tension(data, last))
    if "skill_depth" in data or "chance" in data:
        sentences.append(_skill(data))
    return [s for s in sentences if s is not None][:6]


def _names(data: dict) -> tuple[str, str]:
    return tuple(data["editions"][i]["name"] for i in range(len(data["editions"])))


def _changes(data: dict) -> dict:
    comparison, out = data["comparison"], _Sentence(data)
    base, variant = _names(data)
    measures = comparison["measures"]
    games = out.quote(["comparison", "games"])
    noticed = sorted(comparison["noticeable"], key=lambda name: _named_first(name, measures[name]))
    opening = f"On the same {games:,} deals, {variant} against {base}:"
    if not noticed:
        flagged = len(out.quote(["comparison", "flagged"]))
        found = f"the paired test finds {flagged} difference{'s' if flagged != 1 else ''}" if flagged else ""
        return out.done(
            f"{opening} no change a player would notice"
            + (f" ({found}, each smaller than a player notices)." if flagged else " (the paired test finds none).")
        )
    named = []
    for name in noticed[:MOST_NAMED]:
        first = out.quote(["comparison", "measures", name, "first"])
        second = out.quote(["comparison", "measures", name, "second"])
        p = out.quote(["comparison", "measures", name, "p"])
        title = measures[name]["title"]
        named.append(f"{title} goes from {amount(name, first)} to {amount(name, second)} ({p_value(p)})")
    more = len(noticed) - len(named)
    tail = f", and {more} more change{'s' if more > 1 else ''} a player would notice" if more else ""
    count = len(noticed)
    return out.done(
        f"{opening} {count} change{'s' if count > 1 else ''} a player would notice: " + "; ".join(named) + tail + "."
    )


def _named_first(name: str, measure: dict) -> tuple:
    group = next((i for i, prefix in enumerate(FIRST_NAMED) if name.startswith(prefix)), len(FIRST_NAMED))
    return group, -abs(measure["difference"]) / max(measure["threshold"], 1e-9)


def _steady(data: dict) -> dict:
    measures, out = data["comparison"]["measures"], _Sentence(data)
    kept = []
    for prefix in STEADY:
        names = [n for n in measures if n.startswith(prefix)]
        if not names or any(measures[n]["noticeable"] for n in names):
            continue
        for name in names:
            out.quote(["comparison", "measures", name, "noticeable"])
        kept.append("every seat's share of the wins" if prefix == "win.position" else measures[names[0]]["title"])
    if not kept:
        return out.done("Everything a player watches from game to game changes: seats, ties, margins and tension.")
    return out.done("What does not change that a player would notice: " + ", ".join(kept) + ".")


def _carried(data: dict, index: int) -> dict:
    figures, out = data["figures"][index], _Sentence(data)
    settings = data["settings"]
    categories = figures["categories"]
    counted = [key for key in categories if categories[key]["share"]["mean"] is not None]  # not `counts: false`
    top = max(counted, key=lambda key: categories[key]["share"]["mean"])
    share = out.quote(["figures", index, "categories", top, "share", "mean"])
    games = out.quote(["figures", index, "games"])
    seats = ", ".join(settings["seats"])
    return out.done(
        f"In {games:,} games of {data['editions'][index]['name']} ({seats}), most points come from "
        f"{categories[top]['title']}: {share:.1%} of all points scored."
    )


def _lines(data: dict, index: int) -> dict:
    categories, out = data["figures"][index]["categories"], _Sentence(data)
    known = [key for key in categories if categories[key]["with_winning"] is not None]
    if not known:
        games = out.quote(["figures", index, "games"])
        return out.done(f"No sheet line goes with winning: in {games:,} games no line's points vary with the result.")
    strongest = max(known, key=lambda key: categories[key]["with_winning"])
    r = out.quote(["figures", index, "categories", strongest, "with_winning"])
    title = categories[strongest]["title"]
    base_r = None
    if index == 1 and strongest in data["figures"][0]["categories"]:
        base_r = data["figures"][0]["categories"][strongest]["with_winning"]
        if base_r is not None:
            out.quote(["figures", 0, "categories", strongest, "with_winning"])
    against = f", against {base_r:+.2f} in {data['editions'][0]['name']}" if base_r is not None else ""
    others = [key for key in known if key != strongest]
    runner_up = max(others, key=lambda key: categories[key]["with_winning"], default=None)
    second = 0.0 if runner_up is None else out.quote(["figures", index, "categories", runner_up, "with_winning"])
    if r >= DOMINANT_LINE and r - second >= DOMINANT_GAP:
        return out.done(
            f"{title} decides the game by itself: its points go with winning at r = {r:+.2f}{against}, "
            f"and no other line reaches {second:+.2f}."
        )
    moved = base_r is not None and abs(r - base_r) >= CORRELATION_CHANGE
    next_line = f", the next, {categories[runner_up]['title']}, r = {second:+.2f}" if runner_up else ""
    return out.done(
        f"No sheet line decides the game by itself: the one that goes most with winning, {title}, has "
        f"r = {r:+.2f}{against}{' (a change a player would feel)' if moved else ''}{next_line}."
    )


def _seats(data: dict, index: int) -> dict:
    figures, out = data["figures"][index], _Sentence(data)
    parity = out.quote(["figures", index, "parity"])
    rates = figures["win_rate_by_position"]
    edges = [seat for seat, r in enumerate(rates) if has_edge(r, parity)]
    if not edges:
        order = sorted(range(len(rates)), key=lambda s: rates[s]["rate"])
        low = out.quote(["figures", index, "win_rate_by_position", order[0], "rate"])
        high = out.quote(["figures", index, "win_rate_by_position", order[-1], "rate"])
        return out.done(
            f"No seat has an edge: every seat wins between {low:.1%} and {high:.1%} of the games, against a "
            f"fair share of {parity:.1%}."
        )
    seat = max(edges, key=lambda s: abs(rates[s]["rate"] - parity))
    rate = out.quote(["figures", index, "win_rate_by_position", seat, "rate"])
    low, high = (out.quote(["figures", index, "win_rate_by_position", seat, "ci95", i]) for i in (0, 1))
    word = "an edge" if rate > parity else "a handicap"
    paired = ""
    if "comparison" in data and f"win.position{seat + 1}" in data["comparison"]["measures"]:
        before = out.quote(["comparison", "measures", f"win.position{seat + 1}", "first"])
        p = out.quote(["comparison", "measures", f"win.position{seat + 1}", "p"])
        paired = f"; {before:.1%} in {data['editions'][0]['name']}, {p_value(p)}"
    return out.done(
        f"Seat {seat + 1} has {word}: it wins {rate:.1%} of the games (95% CI {low:.1%} to {high:.1%}{paired}), "
        f"against a fair share of {parity:.1%}."
    )


def has_edge(rate: dict, parity: float) -> bool:
    """A seat has an edge (or a handicap) when its win share is a noticeable distance from the fair
    share and its 95% interval leaves the fair share out."""
    noticed = abs(rate["rate"] - parity) >= MEASURES["position"].absolute
    return noticed and not rate["ci95"][0] <= parity <= rate["ci95"][1]


def _cards(data: dict, index: int) -> dict:
    figures, out = data["figures"][index], _Sentence(data)
    win = "capturers_win" if figures["kind"] == "holdings" else "drafters_win"
    cards = {letter: c for letter, c in figures["cards"].items() if c[win]["n"]}
    parity = out.quote(["figures", index, "parity"])
    best = max(cards, key=lambda letter: cards[letter][win]["rate"])
    rate = out.quote(["figures", index, "cards", best, win, "rate"])
    low = out.quote(["figures", index, "cards", best, win, "ci95", 0])
    high = out.quote(["figures", index, "cards", best, win, "ci95", 1])
    name = f"{cards[best]['name']} ({best})"
    if low >= DOMINANT_CARD * parity:
        return out.done(
            f"{name} dominates: the players who take it win {rate:.1%} of those games (95% CI {low:.1%} to "
            f"{high:.1%}), {rate / parity:.1f} times a fair share of {parity:.1%}."
        )
    return out.done(
        f"No card dominates: the best, {name}, goes with a win in {rate:.1%} of the games it is taken in "
        f"(95% CI {low:.1%} to {high:.1%}), against a fair share of {parity:.1%}."
    )


def _tension(data: dict, index: int) -> dict | None:
    figures, out = data["figures"][index], _Sentence(data)
    if figures["kind"] == "holdings":
        margin = out.quote(["figures", index, "winning_margin", "mean"])
        return out.done(f"The winner finishes {margin:.1f} points ahead of the next player on average.")
    margin = out.quote(["figures", index, "winning_margin", "mean"])
    late = out.quote(["figures", index, "leader_before_last_round_loses", "rate"])
    decisive = out.quote(["figures", index, "decisiveness", "mean"])
    of = f" of {figures['rounds']}"
    return out.done(
        f"The winner finishes {margin:.1f} points ahead on average, is clear from round {decisive:.1f}{of}, "
        f"and the leader before the last round goes on to lose {late:.1%} of the games."
    )


def _skill(data: dict) -> dict:
    """Skill depth and chance, when they were measured (boom simulate --depth, --chance)."""
    out, said = _Sentence(data), []
    if "skill_depth" in data:
        depth = out.quote(["skill_depth", "depth"])
        rungs = data["skill_depth"]["rungs"]
        steps = []
        for index, rung in enumerate(rungs):
            won = out.quote(["skill_depth", "rungs", index, "win_rate", "rate"])
            steps.append(f"{rung['upper']} over {rung['lower']} {won:.1%}")
        fair = rungs[0]["parity"] if rungs else 0
        said.append(
            f"better play pays on {depth} of the {len(rungs)} rungs of the bot ladder (skill depth {depth}: "
            + ", ".join(steps) + f" of the wins, against a fair share of {fair:.1%})"
        )
    if "chance" in data and data["chance"]["wins"]["share"] is not None:
        share = out.quote(["chance", "wins", "share"])
        said.append(
            f"with identical {data['chance']['bots']} players in every seat, the deal explains {share:.0%} "
            "of who wins and the players' own choices the rest"
        )
    if not said:
        return None
    text = "; ".join(said)
    return out.done(text[0].upper() + text[1:] + ".")
