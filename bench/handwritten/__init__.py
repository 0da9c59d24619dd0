"""The lean baseline: a hand-written Boomerang game for each published edition, written for speed.

Plain Python with no boom import, written as a careful engineer writes a fast game: cards are small
integers and sets of them bitmasks, a card's icons one packed integer (one add a card counts a whole
round), every score read from a table built at import, and no Python call, generator or string in
the loop. It plays the same rules as editions/*.yaml (deal with the rule for cards left undealt,
Throw, picks, passing, Catch, every category and race, 4 rounds) with random seats that draw as the
engine's do, so a seed plays the engine's game: tests/test_bench_baseline.py checks the drafts,
choices and totals seed by seed. bench/games_per_second.py and bench/instructions.py time the engine
against it. It must never read the editions' YAML or import rulesengine: its card data comes from
tests/reference (the sources the editions were checked against).
"""
