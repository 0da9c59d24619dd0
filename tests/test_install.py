"""The base install: a name of our own, extras by use, and the base alone plays, validates, scores and serves.

The measured figures (a fresh venv's size, `make demo` on a fresh clone) are in the issue's closing note;
here the same promise is kept as data: the extras' packages are blocked from import and every base command
still works, the server included (a real one, on a free port, asked for its page over HTTP).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
import urllib.request

from conftest import EDITIONS, ROOT

import cli.main
import rulesengine

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
EXTRAS_ONLY = ("matplotlib", "numpy", "PIL", "ray", "playwright", "pytest", "hypothesis", "check_jsonschema",
               "psycopg")
BLOCKER = f"""
import sys
class ExtrasOnly:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in {EXTRAS_ONLY!r}:
            raise ImportError(name + ' is not in the base install')
sys.meta_path.insert(0, ExtrasOnly())
from cli.main import main
main()
"""


def _base(*args, **options):
    return subprocess.run([sys.executable, "-c", BLOCKER, *args], capture_output=True, text=True, **options)


def test_the_distribution_has_a_name_of_its_own_and_the_command_stays_boom():
    assert PYPROJECT["name"] == "boomerang-rules" == cli.main.DISTRIBUTION == rulesengine.DISTRIBUTION
    assert PYPROJECT["scripts"] == {"boom": "cli.main:main"}


def test_version_names_the_installed_distribution():
    from importlib import metadata

    result = subprocess.run([sys.executable, "-m", "cli.main", "--version"], capture_output=True, text=True)
    assert result.stdout == f"boom {metadata.version('boomerang-rules')}\n"


def test_the_base_needs_no_plotting_and_each_extra_adds_one_use():
    names = {re.match(r"[A-Za-z0-9_.-]+", d).group(0) for d in PYPROJECT["dependencies"]}
    assert names == {"pyyaml", "jsonschema", "lark", "click", "rich", "websockets"}
    extras = PYPROJECT["optional-dependencies"]
    assert extras["report"] == ["matplotlib>=3.7"]
    assert extras["ray"] == ["ray>=2.52"]  # token authentication (#32)
    assert extras["browser-tests"] == ["playwright>=1.40"]
    assert extras["fast"] == ["numpy>=2.0"]
    assert extras["postgres"] == ["psycopg[binary]>=3.1"]
    in_dev = set(extras["dev"][0].split("[")[1].rstrip("]").split(","))
    assert extras["dev"][0].startswith("boomerang-rules[")
    assert {"report", "ray", "browser-tests", "fast", "postgres"} <= in_dev


def test_the_base_plays_validates_and_scores_without_any_extra(tmp_path):
    record = tmp_path / "game.yaml"
    played = _base("run", "australia", "-p", "3", "--seed", "1", "-q", "--save-record", str(record), cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert "Winner: Ben" in played.stdout
    checked = _base("validate", str(EDITIONS / "usa.yaml"))
    assert checked.returncode == 0, checked.stderr
    scored = _base("score", "--record", str(record), cwd=tmp_path)
    assert scored.returncode == 0, scored.stderr
    assert "Winner: Ben" in scored.stdout


def test_a_postgresql_database_without_the_extra_is_one_clear_error():
    refused = _base("serve", "--port", "0", "--db", "postgresql://boom@127.0.0.1:1/boom")
    assert refused.returncode != 0 and refused.stdout == ""
    assert refused.stderr == "error: a PostgreSQL database needs psycopg: pip install 'boomerang-rules[postgres]'\n"


def test_the_base_serves_the_web_page_without_any_extra(tmp_path):
    server = subprocess.Popen([sys.executable, "-c", BLOCKER, "serve", "--port", "0", "--db", str(tmp_path / "t.db")],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = server.stdout.readline()
        assert first.startswith("boom server on ws://127.0.0.1:"), first + server.stderr.read()
        port = int(first.split("ws://127.0.0.1:")[1].split()[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=600) as page:
            assert page.status == 200 and b"<script" in page.read()
    finally:
        server.terminate()
        server.wait(timeout=600)


def test_the_batch_simulator_says_which_extra_it_needs_without_numpy():
    code = BLOCKER.split("from cli.main")[0] + """
from rulesengine.fast import missing_numpy
print(missing_numpy())
try:
    import rulesengine.fast.batch
except ImportError as exc:
    print(exc)
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    said = "the batch simulator needs numpy, which the base install leaves out: pip install 'boomerang-rules[fast]'"
    assert (result.returncode, result.stdout) == (0, f"{said}\n{said}\n"), result.stderr


def test_simulate_without_numpy_plays_through_the_generated_game_and_says_what_to_install():
    result = _base("simulate", "australia", "-p", "2", "-n", "200")
    assert result.returncode == 0, result.stderr
    assert " ".join(result.stdout.split()).endswith(
        "Played by the generated game (rulesengine/compiled; the batch simulator needs numpy, which the base "
        "install leaves out: pip install 'boomerang-rules[fast]').")


def test_make_demo_installs_the_base_and_make_test_says_what_it_installs_system_wide(tmp_path):
    """The Makefile's promises, read from its recipes: demo needs only the base install; the Chromium
    install (root with apt, no Chromium) says what and why before apt-get runs, and can be declined."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "\ndemo: $(BASE)\n" in makefile
    assert "$(BIN)/pip install --quiet -e .\n" in makefile and "-e '.[dev]'" not in makefile.split("$(BASE):")[1].split(
        "\n\n")[0]
    browser = makefile.split("\nbrowser:\n", 1)[1].split("\n\n", 1)[0]
    said = browser.index("installing Debian's chromium system-wide with apt-get (about 350 MB)")
    assert said < browser.index("apt-get update") and "INSTALL_CHROMIUM=no" in browser
    bare = tmp_path / "bin"     # a PATH without Chromium (nor apt-get): only a shell and id
    bare.mkdir()
    for tool in ("sh", "id"):
        (bare / tool).symlink_to(shutil.which(tool))
    declined = subprocess.run(["make", "-s", "browser", "INSTALL_CHROMIUM=no", f"PATH={bare}", "SHELL=/bin/sh"],
                              capture_output=True, text=True, cwd=ROOT)
    assert (declined.returncode, declined.stdout) == (0, "no Chromium and INSTALL_CHROMIUM=no: the browser tests "
                                                         "will be skipped\n")


def test_make_test_installs_and_the_tests_start_the_distributions_postgresql(tmp_path):
    """The PostgreSQL tests need the distribution's server (tests/pg_support.py starts a throwaway one): `make test`
    installs it as it does Chromium, saying so first, unless declined; and it is a prerequisite of `make test`."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "\ntest: $(STAMP) browser postgres\n" in makefile
    recipe = makefile.split("\npostgres:\n", 1)[1].split("\n\n", 1)[0]
    said = recipe.index("installing Debian's postgresql system-wide with apt-get")
    assert said < recipe.index("apt-get update") and "INSTALL_POSTGRES=no" in recipe
    bare = tmp_path / "bin"  # a PATH without PostgreSQL's programs (nor apt-get): only a shell, id and ls
    bare.mkdir()
    for tool in ("sh", "id", "ls"):
        (bare / tool).symlink_to(shutil.which(tool))
    declined = subprocess.run(["make", "-s", "postgres", "INSTALL_POSTGRES=no", f"PATH={bare}", "SHELL=/bin/sh",
                               "POSTGRES_BIN=/nonexistent/*/bin"], capture_output=True, text=True, cwd=ROOT)
    assert (declined.returncode, declined.stdout) == (0, "no PostgreSQL server and INSTALL_POSTGRES=no: the "
                                                         "PostgreSQL tests will be skipped (with CI=true, fail)\n")
