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


# -- a typo changes the game and validated clean -----------------------------------------------------
def test_a_key_one_letter_off_the_parent_s_is_a_warning_that_says_which_was_meant(tmp_path):
    path = write(tmp_path, "typo.yaml", """extends: australia
id: typo
categories:
  - key: animal
    title: Animals
    score: 2 * count('Koalas', cards)
  - key: colections
    title: Collections
    score: len(cards)
regions:
  - {name: Tasmanai, bonus: 6}
""")
    edition, diagnostics = check_edition(path)
    assert edition is not None  # valid data: a warning, not an error
    found = [(d.span.line, d.span.col, d.message, d.hint) for d in diagnostics if d.code == "W410"]
    assert found == [
        (4, 10, "'animal' adds a new category, close to the category 'animals' of the edition it extends",
         "did you mean 'animals'? The same key changes the parent's category; a new one adds a category"),
        (7, 10, "'colections' adds a new category, close to the category 'collections' of the edition it extends",
         "did you mean 'collections'? The same key changes the parent's category; a new one adds a category"),
        (11, 12, "'Tasmanai' adds a new region, close to the region 'Tasmania' of the edition it extends",
         "did you mean 'Tasmania'? The same name changes the parent's region; a new one adds a region"),
    ]
    [note] = next(d for d in diagnostics if d.code == "W410").notes
    assert (Path(note.span.file).name, note.span.line, note.message) == ("australia.yaml", 87,
                                                                         "the category 'animals' is here")
    strict = invoke("validate", "--strict", path)
    assert strict.exit_code == 1 and "4 errors" in strict.output  # --strict: the warnings refuse the file (and W401)
    assert f"{path}:4:10: error: 'animal' adds a new category" in strict.output


def test_a_new_category_without_a_title_is_warned_of(tmp_path):
    path = write(tmp_path, "v.yaml", "extends: australia\nid: v\ncategories:\n  - key: koala_bonus\n"
                                     "    description: 2 a Koala.\n    score: 2 * count('Koalas', cards)\n")
    _, diagnostics = check_edition(path)
    assert [(d.code, d.span.line, d.message) for d in diagnostics if d.severity == "warning"] == [
        ("W411", 4, "the new category 'koala_bonus' has no title, so the sheet shows 'koala_bonus'")]


# -- a choice was replaced whole ---------------------------------------------------------------------
def test_activities_may_repeat_keeps_the_parent_s_requirement_and_plays(tmp_path):
    """`choice: {from: activity, once_per_game: false}` dropped `requires` and stopped games with R501
    at a line of australia.yaml (seeds 1, 2, 3 and 5); a choice now merges key by key."""
    path = write(tmp_path, "repeat.yaml", """extends: australia
id: repeat
categories:
  - key: activities
    description: As printed, but an activity may be chosen again in a later round.
    choice: {from: activity, once_per_game: false}
""")
    edition, diagnostics = check_edition(path)
    activities = next(c for c in edition.categories if c.key == "activities")
    assert (activities.choice.once_per_game, activities.choice.requires.text) == (False, "count(choice, cards) >= 1")
    for seed in (1, 2, 3, 5):
        result = invoke("run", path, "--players", "3", "--seed", seed, "-q")
        assert result.exit_code == 0 and "R501" not in result.output, result.output


def test_a_requirement_lost_by_giving_the_category_again_is_warned_of(tmp_path):
    path = write(tmp_path, "again.yaml", """extends: australia
id: again
remove: {categories: [activities]}
categories:
  - key: activities
    title: Activities
    description: Activities may repeat.
    choice: {from: activity, once_per_game: false}
    score: lookup(activity_points, count(choice, cards))
""")
    _, diagnostics = check_edition(path)
    [lost] = [d for d in diagnostics if d.code == "W412"]
    assert (lost.span.line, lost.message) == (
        8, "the choice of 'activities' no longer has the requirement of the edition it extends "
           "(count(choice, cards) >= 1)")
    assert [(Path(n.span.file).name, n.span.line) for n in lost.notes] == [("australia.yaml", 101)]


# -- errors pointed at the parent file ---------------------------------------------------------------
def diagnostics_of(path):
    _, diagnostics = check_edition(path)
    return [(Path(d.span.file).name, d.span.line, d.span.col, d.severity, d.code) for d in diagnostics
            if d.severity != "note" and d.code != "W402"]


def test_one_map_path_added_the_natural_way_is_blamed_on_the_house_rule(tmp_path):
    """It gave 39 errors, all in usa.yaml; now each is at the house rule's `paths`, with the parent's
    line as a note, and a warning says how to add a path."""
    path = write(tmp_path, "path.yaml", "extends: usa\nid: path\nmap:\n  paths: [['A', 'Z']]\n")
    assert diagnostics_of(path) == [("path.yaml", 4, 3, "error", "M321"), ("path.yaml", 4, 3, "error", "M319"),
                                    ("path.yaml", 4, 3, "error", "M319"), ("path.yaml", 4, 3, "warning", "W414")]
    _, diagnostics = check_edition(path)
    assert [Path(n.span.file).name for d in diagnostics for n in d.notes] == ["usa.yaml"] * 4
    added = write(tmp_path, "added.yaml", "extends: usa\nid: added\nmap:\n  paths: {add: [['A', 'Z']]}\n")
    edition, diagnostics = check_edition(added)
    assert [d for d in diagnostics if d.severity != "note" and d.code != "W402"] == []
    assert edition.card("Z") in edition.paths[edition.card("A")]


def test_removing_a_region_without_its_cards_is_one_error_at_the_removal(tmp_path):
    path = write(tmp_path, "tas.yaml", "extends: australia\nid: tas\nremove: {regions: [Tasmania]}\n")
    _, diagnostics = check_edition(path)
    [error] = [d for d in diagnostics if d.severity == "error"]
    assert (Path(error.span.file).name, error.span.line, error.span.col, error.code) == ("tas.yaml", 3, 20, "M304")
    assert error.message == "removing the region 'Tasmania' leaves its cards Y, Z, @ and # without a region"
    assert error.hint == "remove them too: remove: {regions: ['Tasmania'], cards: ['Y', 'Z', '@', '#']}"
    assert [(Path(n.span.file).name, n.span.line) for n in error.notes] == [("australia.yaml", line)
                                                                           for line in (66, 67, 68, 69)]
    fixed = write(tmp_path, "fixed.yaml", "extends: australia\nid: fixed\nplayers: {max: 3}\n"
                                          "remove: {regions: [Tasmania], cards: ['Y', 'Z', '@', '#']}\n")
    assert len(load_edition(fixed).cards) == 24


def test_nine_players_is_reported_at_players_not_at_the_parent_s_hand_size(tmp_path):
    path = write(tmp_path, "nine.yaml", "extends: australia\nid: nine\nplayers: {max: 9}\n")
    _, diagnostics = check_edition(path)
    [error] = diagnostics
    assert (Path(error.span.file).name, error.span.line, error.span.col, error.code) == ("nine.yaml", 3, 16, "M308")
    assert error.message == "9 players need 63 cards (7 each) but the deck has 28"
    assert [(Path(n.span.file).name, n.span.line, n.message) for n in error.notes] == [
        ("australia.yaml", 16, "each hand is 7 cards here")]
    rendered = invoke("validate", path).output
    assert f"{path}:3:16: error: 9 players need 63 cards (7 each) but the deck has 28 [M308]" in rendered
    assert "note: " in rendered and "australia.yaml:16:12: each hand is 7 cards here" in rendered


# -- lists were replaced whole -----------------------------------------------------------------------
def test_one_new_icon_keeps_the_family_and_its_title(tmp_path):
    path = write(tmp_path, "icon.yaml", """extends: australia
id: icon
families:
  activity: {icons: {add: [Surfing]}}
  animal: {icons: {Koalas: 14}}
cards:
  - {letter: 'L', icons: {add: [Surfing]}}
""")
    edition = load_edition(path)
    assert edition.families["activity"].title == "Activities"
    assert edition.families["activity"].icons[-1] == "Surfing"
    assert edition.families["animal"].values == {"Kangaroos": 3, "Emus": 4, "Wombats": 5, "Koalas": 14,
                                                 "Platypuses": 9}
    assert edition.card("L").icons == ("Wildflowers", "Swimming", "Surfing")


def test_the_rules_and_the_errors_point_at_guides_an_installed_user_has():
    """`boom rules --formulas` named docs/dsl.md, which `pip install` did not install: it names
    `boom docs dsl`, which prints the installed guide."""
    formulas = invoke("rules", "australia", "--formulas")
    assert "The whole language: `boom docs dsl`." in " ".join(formulas.output.split())
    assert "docs/" not in formulas.output
    assert invoke("docs", "dsl").output.startswith("# The scoring language")


def test_a_new_category_without_a_score_says_which_key_it_needs(tmp_path):
    """Was S100 'is not valid under any of the given schemas', with the entry printed as data."""
    path = write(tmp_path, "v.yaml", "extends: australia\nid: v\ncategories:\n  - key: koala\n    title: Koala\n")
    _, diagnostics = check_edition(path)
    assert [(d.code, d.span.line, d.message) for d in diagnostics if d.severity == "error"] == [
        ("S102", 4, "the category 'koala' is missing the key 'score' (or 'majority')")]
