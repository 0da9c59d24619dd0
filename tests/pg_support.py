"""A real PostgreSQL server for the tests: the distribution's, started on loopback in a temporary folder for the run.

`make test` (CI) installs Debian's postgresql when it is missing; this starts a throwaway cluster of it
(initdb into a temporary folder, as the `postgres` system user when the tests run as root: PostgreSQL
refuses to run as root), listening on 127.0.0.1 at a free port, and stops it at the end. Each test gets a
database of its own. BOOM_TEST_POSTGRES=postgresql://... uses a server already running instead. Without
PostgreSQL the tests that need it are skipped, saying why; with CI=true they fail instead.
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from ports import free_port

MISSING = (
    "the PostgreSQL tests need the distribution's PostgreSQL server (initdb, pg_ctl) and psycopg: "
    "`apt-get install -y postgresql` and `pip install -e '.[dev]'` (`make test` does both)"
)


def server_programs() -> Path | None:
    """The folder of initdb and pg_ctl: on the PATH, or Debian's /usr/lib/postgresql/VERSION/bin (newest)."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    folders = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda f: int(Path(f).parent.name or 0))
    for folder in reversed(folders):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


def unavailable(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"{MISSING} ({reason})", pytrace=False)
    pytest.skip(f"{MISSING} ({reason})")


class TempPostgres:
    """A PostgreSQL cluster in a temporary folder, on 127.0.0.1 at a free port, trusting loopback connections."""

    def __init__(self, programs: Path):
        self.programs = programs
        self.folder = Path(tempfile.mkdtemp(prefix="boom-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL will not run as root: as the postgres user the package created
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError("running as root, and there is no postgres user to run PostgreSQL as") from None
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]

    def _run(self, *command: str) -> None:
        subprocess.run(
            [*self.as_user, *command], check=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120
        )

    def start(self) -> str:
        self._run(str(self.programs / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "boom", "-E", "UTF8",
                  "--no-sync")
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -c unix_socket_directories={self.folder} -c fsync=off"
            " -c max_connections=300 -c shared_buffers=64MB"
        )
        self._run(str(self.programs / "pg_ctl"), "-D", str(self.data), "-o", options, "-l",
                  str(self.folder / "log"), "-w", "-t", "60", "start")
        return f"postgresql://boom@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        try:
            self._run(str(self.programs / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
            pass
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server():
    """The URL of a PostgreSQL server for this run (its `postgres` database), or a skip (a failure in CI)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        unavailable("psycopg is not installed")
    given = os.environ.get("BOOM_TEST_POSTGRES")
    if given:
        yield given
        return
    programs = server_programs()
    if programs is None:
        unavailable("no initdb found")
    server = TempPostgres(programs)
    try:
        url = server.start()
    except (subprocess.CalledProcessError, RuntimeError, OSError) as exc:
        output = getattr(exc, "stdout", b"") or b""
        server.stop()
        unavailable(f"it did not start: {exc} {output.decode(errors='replace')[-400:]}")
    try:
        yield url
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server):
    """A fresh, empty database on the run's server, dropped after the test."""
    import psycopg

    name = f"boom_{secrets.token_hex(6)}"
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    base, _, _ = postgres_server.rpartition("/")
    yield f"{base}/{name}"
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
