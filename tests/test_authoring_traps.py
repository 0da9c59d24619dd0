"""Issue #31: the traps a house-rule author meets, each reproduced from an author's file, and the
behaviour that replaces them."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from cli.main import main
from rulesengine import check_edition, load_edition
from rulesengine.game.scoring import ScoreKeeper

ROOT = Path(__file__).resolve().parent.parent
AUSTRALIA = ROOT / "editions" / "australia.yaml"


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def invoke(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in result.output, result.output
    return result


# -- the smaller fixes ------------------------------------------------------------------------------
def test_validate_text_output_gives_each_diagnostic_its_code(tmp_path):
    path = write(tmp_path, "v.yaml", f"extends: {AUSTRALIA}\nid: v\ncategories:\n  - key: collections\n"
                                     "    score: len(cardz)\n")
    result = invoke("validate", path)
    assert result.exit_code == 1
    assert f"{path}:5:16: error: unknown name 'cardz' [D202]\n" in result.output


def test_an_unknown_name_with_nothing_close_lists_the_names_there_are(tmp_path):
    """The 2010 game's end has no `opponents` and no `seat`: the hint says what it has."""
    path = write(tmp_path, "v.yaml", f"""extends: {ROOT / 'editions' / 'boomerang-2010.yaml'}
id: v
categories:
  - key: extra
    title: Extra
    when: game_end
    score: len(opponents) + seat
""")
    _, diagnostics = check_edition(path)
    hints = [(d.message, d.hint) for d in diagnostics if d.code == "D202"]
    names = "names here: captured, players, boomerangs, regions, deck, species, ground"
    assert hints == [("unknown name 'opponents'", names), ("unknown name 'seat'", names)]


def test_one_player_has_no_phantom_opponent(tmp_path):
    path = write(tmp_path, "solo.yaml", f"""extends: {AUSTRALIA}
id: solo
players: {{min: 1, max: 4}}
categories:
  - key: rivals
    title: Rivals
    description: How many other players there are (a tally).
    counts: false
    score: len(opponents) + len(left.cards) + len(right.visited)
""")
    edition = load_edition(path)
    alone = ScoreKeeper(edition, ["Ann"])
    alone.score_round([[edition.card(x) for x in "HMZABCD"]], [{}])
    assert alone.rounds[0][0]["rivals"] == 0
    two = ScoreKeeper(edition, ["Ann", "Bob"])
    two.score_round([[edition.card(x) for x in "HMZABCD"], [edition.card(x) for x in "IEFGJKL"]], [{}, {}])
    assert [two.rounds[seat][0]["rivals"] for seat in (0, 1)] == [1 + 7 + 7, 1 + 7 + 7]


def test_a_two_deck_edition_may_give_each_of_its_28_sites_its_own_icon(tmp_path):
    """A family of 28 icons (24 was the limit): the work budget, not a fixed size, bounds its cost."""
    data = AUSTRALIA.read_text(encoding="utf-8")
    letters = [line.split("'")[1] for line in data.splitlines() if line.startswith("  - {letter: ")]
    sites = "\n".join(f"      - 'Site {letter}'" for letter in letters)
    cards = "\n".join(f"  - {{letter: '{letter}', icons: [Leaves, 'Site {letter}']}}" for letter in letters)
    path = write(tmp_path, "sites.yaml", f"""extends: {AUSTRALIA}
id: sites
copies: 2
players: {{min: 2, max: 8}}
families:
  site:
    title: Sites
    icons:
{sites}
cards:
{cards}
categories:
  - key: pairs
    title: Site pairs
    description: 2 points for each site whose two copies you drafted this round.
    score: sum([2 for k in kinds(site) if count(k, cards) == 2])
""")
    edition, diagnostics = check_edition(path)
    assert [d.message for d in diagnostics if d.severity == "error"] == []
    assert len(edition.families["site"].icons) == 28
    keeper = ScoreKeeper(edition, ["Ann", "Bob"])
    keeper.score_round([[edition.card(x) for x in ("A", "A.2", "B", "C", "D", "E", "F")],
                        [edition.card(x) for x in ("G", "H", "I", "J", "K", "L", "M")]], [{}, {}])
    assert [keeper.rounds[seat][0]["pairs"] for seat in (0, 1)] == [2, 0]


def test_the_round_rows_add_up_to_the_total_with_uncounted_lines_apart():
    """australia-no-throw-catch, seed 3: the rows summed to 94 for a total of 84 (Throw & Catch,
    `counts: false`, was added into each round row). Now the rows add up, the line shown below the total."""
    result = invoke("run", "australia-no-throw-catch", "--players", "3", "--seed", "3", "-q")
    assert result.exit_code == 0, result.output
    rows = {line.split("│")[1].strip(): [int(x) for x in line.split("│")[2:-1]]
            for line in result.output.splitlines() if line.startswith("│")}
    lines = ["round 1", "round 2", "round 3", "round 4", "Region bonuses", "Tourist sites"]
    assert [sum(rows[name][seat] for name in lines) for seat in range(3)] == rows["total"] == [84, 97, 94]
    assert rows["Throw & Catch (not counted)"] == [10, 6, 8]
    assert list(rows)[-1] == "Throw & Catch (not counted)"


def test_simulate_gives_no_share_of_the_points_to_an_uncounted_line():
    from rulesengine.simulate import Settings, report_data, run_simulation

    variant = ROOT / "editions" / "variants" / "australia-no-throw-catch.yaml"
    figures = report_data(run_simulation(Settings((str(variant),), ("random",) * 3, 4, 1)))["figures"][0]
    throw_catch = figures["categories"]["throw_catch"]
    assert (throw_catch["kind"], throw_catch["share"]) == ("not counted", {"mean": None, "ci95": None})
    shares = [c["share"]["mean"] for c in figures["categories"].values() if c["share"]["mean"] is not None]
    assert abs(sum(shares) - 1) < 1e-3
