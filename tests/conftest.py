"""Shared fixtures: editions are loaded once per test session."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = ROOT / "editions"
sys.path.insert(0, str(Path(__file__).resolve().parent))

# The caches boom keeps in the user's cache folder (the parser's tables, checked editions: edition/cache.py) go to
# a folder of this session, never the user's home; the commands the tests start inherit it. Editions are read
# back from it as a command reads them, so the whole suite runs with the cache on.
_CACHE_HOME = tempfile.mkdtemp(prefix="boom-tests-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE_HOME

from pg_support import postgres_server, postgres_url  # noqa: E402, F401 - a real PostgreSQL for the tests that need it

from rulesengine import Game, load_edition  # noqa: E402
from rulesengine.bots.registry import RandomAgent, agent_seed  # noqa: E402


@pytest.fixture(scope="session")
def australia():
    return load_edition(EDITIONS / "australia.yaml")


@pytest.fixture(scope="session")
def europe():
    return load_edition(EDITIONS / "europe.yaml")


def position(edition, players, seed, picks):
    """A game after `picks` rounds of decisions by random bots."""
    game = Game(edition, [f"p{i}" for i in range(players)], seed)
    agents = [RandomAgent(agent_seed(seed, s)) for s in range(players)]
    for _ in range(picks):
        for decision in game.pending():
            game.apply(decision.seat, agents[decision.seat].decide(game.view(decision.seat), decision),
                       decision.category)
    return game


class Recorded:
    """A bot whose answers are kept in order (a seeded game's answers asserted one by one)."""

    def __init__(self, agent):
        self.agent, self.answers = agent, []
        self.lazy_view = getattr(agent, "lazy_view", False)

    def decide(self, view, decision):
        answer = self.agent.decide(view, decision)
        self.answers.append(answer)
        return answer


def cards(edition, letters: str):
    """Cards by letter: cards(e, 'ABC@')."""
    return [edition.card(letter) for letter in letters]


def letters(cards) -> set:
    """The letters of some cards, as a set."""
    return {c.letter for c in cards}



# `make check` runs the quick part of the suite (`-m "not slow"`); `make test` and CI run everything. Its
# promise, under a minute on an idle 2-core machine, is kept by CPU seconds: each test's own and its
# children's, measured with getrusage around every test (the figures in the commit that last changed
# this list). Slow: the fuzzers, whole games for every bot, edition and player count, the differential
# scorers, the recorded games and logs (fingerprints, golden logs), worker pools and Ray, subprocess round
# trips (a real LSP session; servers sharing PostgreSQL, the kill test), balance verdicts (simulated games),
# and (_a_variant) the same check over every shipped variant where one edition shows the point.
SLOW = ("tests/fuzz/", "tests/test_differential.py", "tests/test_bots.py::test_every_bot_plays",
        "tests/test_bots.py::test_bots_only_make_legal_decisions", "tests/test_shipped.py::test_a_half_written",
        "tests/test_session.py::test_a_game_killed", "tests/test_properties.py",
        "tests/test_hardening_files.py::test_two_processes",
        "tests/test_hardening_play.py::test_validate_refuses_a_fifo", "tests/test_bench_scripts.py",
        "tests/test_fingerprints.py::test_every_shipped_edition_plays_the_recorded_games",
        "tests/test_golden_logs.py::test_a_log_of_bot_games_written_before_still_verifies",
        "tests/test_golden_logs.py::test_a_log_verifies_scored_by_the_reference_interpreter",
        "tests/test_sheet_variables.py::test_catch_up_against",
        "tests/test_sheet_variables.py::test_split_regions_against",
        "tests/test_sheet_variables.py::test_beat_your_best_against",
        "tests/test_simulate.py::test_the_ray_backend_gives_the_local_figures",
        "tests/test_fast_greedy.py::test_greedy_batch_games_score_as_the_engines_greedy_games_within_what",
        "tests/test_simulate.py::test_the_figures_do_not_depend_on_the_number_of_jobs",
        "tests/test_simulate_batched.py::test_a_report_through_the_batch_is_the_engines[2]",
        "tests/test_simulate_flow.py::test_the_figures_do_not_depend_on_the_number_of_jobs",
        "tests/test_simulate.py::test_report_files_are_written_and_the_json_is_deterministic",
        "tests/test_simulate_flow.py::test_every_boomerang_and_card_is_accounted_for_over_many_games",
        "tests/test_rules_text.py::test_formulas_come_only_when_asked",
        "tests/test_validation_corpus.py::test_boom_validate_passes_on_every_variant",
        "tests/test_validation_corpus.py::test_the_variants_change_what_they_say",
        "tests/test_install.py::test_the_base_plays_validates_and_scores_without_any_extra",
        "tests/test_install.py::test_the_base_serves_the_web_page_without_any_extra",
        "tests/test_web_serving.py::test_the_lobby_lists_the_editions_the_server_knows",
        "tests/test_editions_by_name.py::test_editions_lists_every_shipped_edition_with_players_and_provenance",
        "tests/test_validation_corpus.py::test_the_command_line_reports_it_without_a_traceback",
        "tests/test_house_rules.py::test_every_house_rule_is_played_by_bots",
        "tests/test_extends.py::test_every_shipped_variant_validates_and_plays",
        "tests/test_balance.py", "tests/test_lsp.py::test_an_editor_session_with_boom_lsp",
        "tests/test_rules_follow_the_data.py::test_a_log_written_before_the_descriptions_changed_still_verifies",
        "tests/test_net_cluster.py")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.nodeid.startswith(SLOW) or _a_variant(item):
            item.add_marker(pytest.mark.slow)


def _a_variant(item) -> bool:
    """A test run once per shipped edition and variant: its variants are slow, its editions quick (the
    same check, where one edition shows the point; `make test` runs them all)."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    variants = EDITIONS / "variants"
    return any(isinstance(value, Path) and value.parent == variants for value in params.values())


# A game the CLI saves or logs by default lands in the working folder as boom-*.json / boom-*.log: a test
# that runs one must do so in a temporary folder, or its files end up in the checkout (and in commits).
_LEFT_BEFORE: set = set()


def _games_in_checkout() -> set:
    return {p.name for p in ROOT.glob("boom-*") if p.is_file()}


def pytest_sessionstart(session):
    _LEFT_BEFORE.update(_games_in_checkout())


def pytest_sessionfinish(session, exitstatus):
    shutil.rmtree(_CACHE_HOME, ignore_errors=True)
    left = sorted(_games_in_checkout() - _LEFT_BEFORE)
    if left:
        print(f"\nerror: the tests left saved games in {ROOT}: {', '.join(left)} (run that test in tmp_path)")
        session.exitstatus = 1
