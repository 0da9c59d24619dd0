# Two commands do all the set-up on a fresh machine: `make demo` plays a game, `make test` tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test check lint bench clean browser

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/boom run editions/australia.yaml --players 3 --seed 1

test: $(STAMP) browser
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

# the browser tests (tests/test_web_browser.py) drive the distribution's Chromium: installed here when missing and
# root with apt (CI); otherwise they are skipped, saying what is missing (with CI=true they fail instead)
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else echo "no Chromium: the browser tests will be skipped (install it with: sudo apt-get install -y chromium)"; fi

# the quick loop while working: lint and the fast tests, under a minute on 2 cores (`make test` is complete)
check: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -m "not slow" -x

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python bench/games_per_second.py
	$(BIN)/python bench/bots.py

clean:
	rm -rf $(VENV) build *.egg-info
