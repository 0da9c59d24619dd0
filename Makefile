# Two commands do all the set-up on a fresh machine: `make demo` plays a game, `make test` tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test check lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/boom run editions/australia.yaml --players 3 --seed 1

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

# the quick loop while working: lint and the fast tests, under a minute on 2 cores (`make test` is complete)
check: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -m "not slow" -x

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python bench/games_per_second.py

clean:
	rm -rf $(VENV) build *.egg-info
