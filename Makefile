# Two commands do all the set-up on a fresh machine: `make demo` plays a game, `make test` tests.
# `make demo` installs the base only (what plays, validates, scores and serves); `make test` adds the dev extra.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
BASE := $(VENV)/.base
STAMP := $(VENV)/.installed

.PHONY: demo test check lint bench clean browser postgres

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# the base install, editable: enough for `make demo` (a dev install has it too)
$(BASE): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $(BASE)

# everything the tests use: the dev extra (report, ray, browser-tests and the test tools)
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(BASE) $(STAMP)

demo: $(BASE)
	$(BIN)/boom run editions/australia.yaml --players 3 --seed 1

test: $(STAMP) browser postgres
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

# The browser tests (tests/test_web_browser.py) drive the distribution's Chromium. When it is missing and we
# are root with apt (CI), it is installed system-wide, saying so first; otherwise the tests are skipped, saying
# what is missing (with CI=true they fail instead). INSTALL_CHROMIUM=no leaves it alone.
INSTALL_CHROMIUM ?= yes
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	if [ "$(INSTALL_CHROMIUM)" != yes ]; then \
		echo "no Chromium and INSTALL_CHROMIUM=$(INSTALL_CHROMIUM): the browser tests will be skipped"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "make test: installing Debian's chromium system-wide with apt-get (about 350 MB) for the browser"; \
		echo "  tests (tests/test_web_browser.py play the web page in it); 'make test INSTALL_CHROMIUM=no' skips them"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else echo "no Chromium: the browser tests will be skipped (install it with: sudo apt-get install -y chromium)"; fi

# The PostgreSQL tests (pytest -m postgres: the store shared by several servers, the kill test) start a throwaway
# server of the distribution's PostgreSQL on loopback (tests/pg_support.py). When its programs are missing and we
# are root with apt (CI), it is installed system-wide, saying so first; otherwise those tests are skipped, saying
# what is missing (with CI=true they fail instead). INSTALL_POSTGRES=no leaves it alone.
INSTALL_POSTGRES ?= yes
POSTGRES_BIN ?= /usr/lib/postgresql/*/bin
postgres:
	@ls $(POSTGRES_BIN)/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || \
	if [ "$(INSTALL_POSTGRES)" != yes ]; then \
		echo "no PostgreSQL server and INSTALL_POSTGRES=$(INSTALL_POSTGRES): the PostgreSQL tests will be skipped (with CI=true, fail)"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "make test: installing Debian's postgresql system-wide with apt-get (about 200 MB, LLVM included) for the"; \
		echo "  PostgreSQL tests (a throwaway server on loopback per run); 'make test INSTALL_POSTGRES=no' skips them"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	else echo "no PostgreSQL server: the PostgreSQL tests will be skipped (install it with: sudo apt-get install -y postgresql)"; fi

# the quick loop while working: lint and the fast tests (`make test` is complete); tests/conftest.py's SLOW
# list keeps it under a minute on an idle 2-core machine
check: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -m "not slow" -x

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python bench/compiled.py
	$(BIN)/python bench/generated.py
	$(BIN)/python bench/greedy_batch.py
	$(BIN)/python bench/simulate_speed.py --greedy-games 4000
	$(BIN)/python bench/balance_speed.py --no-tune
	$(BIN)/python bench/commands.py
	$(BIN)/python bench/games_per_second.py
	$(BIN)/python bench/first_game.py
	$(BIN)/python bench/bots.py
	$(BIN)/python bench/search_rollouts.py --games 8
	$(BIN)/python bench/search_lanes.py
	$(BIN)/python bench/net_isolation.py

clean:
	rm -rf $(VENV) build *.egg-info
