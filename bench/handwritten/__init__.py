"""A hand-written Boomerang game for each published edition: the baseline the engine is measured against.

Plain Python with no boom import: the same rules as editions/*.yaml (deal with the rule for cards
left undealt, Throw, picks, passing, Catch, every category and race, 4 rounds) with random choices,
written as a programmer would write one game by hand. bench/games_per_second.py times it next to
the engine; tests/test_bench_baseline.py checks that it gives the engine's totals on the same drafts.
It must never read the editions' YAML or import rulesengine: its card data comes from
tests/reference (the sources the editions were checked against).
"""
