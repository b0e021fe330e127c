"""A throwaway PostgreSQL server for the test suite and the benchmarks -- never for real campaigns.

:func:`start_local_postgres` tries, in order:

1. ``RULEKEEPER_TEST_PG_URL``: a server someone already runs (used as given, never stopped);
2. the ``pgserver`` package (``pip install pgserver``, part of the ``test`` extra): PostgreSQL
   binaries in a wheel, started on a Unix socket in ``datadir``. As root it runs the server as
   a system user ``pgserver`` it creates itself (PostgreSQL refuses to run as root);
3. the system's PostgreSQL (``initdb``/``pg_ctl`` from ``/usr/lib/postgresql/*/bin`` or
   ``PATH``), run as the ``postgres`` user when we are root.

Each test gets its own database from :meth:`LocalPostgres.create_database`.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import time
import uuid
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rulekeeper.errors import StoreError

__all__ = ["ENV_URL", "LocalPostgres", "start_local_postgres"]

ENV_URL = "RULEKEEPER_TEST_PG_URL"


def _sqlalchemy_url(uri: str) -> str:
    scheme, _, rest = uri.partition("://")
    if scheme in ("postgresql", "postgres"):
        scheme = "postgresql+psycopg"
    # pgserver writes "user:@" for an empty password; psycopg wants no password at all.
    rest = rest.replace(":@", "@", 1) if ":@" in rest.split("/", 1)[0] + "/" else rest
    return f"{scheme}://{rest}"


class LocalPostgres:
    """A running server: ``url`` is a SQLAlchemy URL of its ``postgres`` database."""

    def __init__(self, url: str, how: str, stop: Callable[[], None] | None = None, log: Path | None = None) -> None:
        self.url = url
        self.how = how
        self.log = log
        self._stop = stop

    def log_tail(self, lines: int = 20) -> str:
        """The end of the server's log, for failure messages."""
        if self.log is None or not self.log.exists():
            return ""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def _admin(self) -> Any:
        import psycopg
        import sqlalchemy as sa

        url = sa.engine.make_url(self.url)
        params = {k: v for k, v in url.query.items() if isinstance(v, str)}
        return psycopg.connect(
            dbname=url.database or "postgres",
            user=url.username,
            password=url.password or None,
            host=params.get("host", url.host),
            port=url.port,
            autocommit=True,
        )

    def create_database(self, name: str | None = None) -> str:
        """A new empty database; its URL."""
        import psycopg
        import sqlalchemy as sa

        name = name or f"rk_{uuid.uuid4().hex[:12]}"
        # A dropped connection right after another test killed a client is retried: the server
        # itself stays up, and a second connection has always succeeded.
        for attempt in range(3):
            try:
                with self._admin() as conn:
                    conn.execute(f'CREATE DATABASE "{name}"')
                break
            except psycopg.OperationalError as exc:
                if attempt == 2:
                    raise StoreError(f"cannot create database {name}: {exc}\nserver log:\n{self.log_tail()}") from exc
                time.sleep(1)
            except psycopg.Error as exc:
                raise StoreError(f"cannot create database {name}: {exc}\nserver log:\n{self.log_tail()}") from exc
        return sa.engine.make_url(self.url).set(database=name).render_as_string(hide_password=False)

    def drop_database(self, url_or_name: str) -> None:
        import sqlalchemy as sa

        name = sa.engine.make_url(url_or_name).database if "://" in url_or_name else url_or_name
        with self._admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        if self._stop is not None:
            self._stop()
            self._stop = None


def _with_pgserver(datadir: Path) -> LocalPostgres:
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI); pgserver copes.
        warnings.simplefilter("ignore")
        from pgserver.postgres_server import get_server

    server = get_server(datadir, cleanup_mode="delete")
    return LocalPostgres(_sqlalchemy_url(server.get_uri()), "pgserver", server.cleanup, server.log)


def _system_bindir() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: p.parent.parent.name)
    return candidates[-1].parent if candidates else None


def _with_system_postgres(datadir: Path) -> LocalPostgres:
    import pwd

    bindir = _system_bindir()
    if bindir is None:
        raise StoreError("no system PostgreSQL found (pg_ctl not on PATH nor in /usr/lib/postgresql/*/bin)")
    data = datadir / "data"
    sockets = datadir / "run"
    data.mkdir(parents=True, exist_ok=True)
    sockets.mkdir(parents=True, exist_ok=True)
    user: str | None = None
    if os.geteuid() == 0:
        user = "postgres"
        try:
            entry = pwd.getpwnam(user)
        except KeyError:
            subprocess.run(["useradd", "--system", "--no-create-home", user], check=True, capture_output=True)
            entry = pwd.getpwnam(user)
        for path in (datadir, data, sockets):
            os.chown(path, entry.pw_uid, entry.pw_gid)
        parent = datadir.parent
        while parent != parent.parent:
            parent.chmod(parent.stat().st_mode | 0o011)
            parent = parent.parent

    def run(*args: str) -> None:
        subprocess.run([str(bindir / args[0]), *args[1:]], check=True, capture_output=True, user=user, timeout=120)

    run("initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "--encoding=UTF8")
    log = datadir / "server.log"
    run("pg_ctl", "-D", str(data), "-w", "-l", str(log), "-o", f"-k {sockets} -h ''", "start")

    def stop() -> None:
        with contextlib.suppress(subprocess.SubprocessError):
            run("pg_ctl", "-D", str(data), "-w", "-m", "fast", "stop")
        shutil.rmtree(datadir, ignore_errors=True)

    return LocalPostgres(f"postgresql+psycopg://postgres@/postgres?host={sockets}", "system", stop, log)


def start_local_postgres(datadir: Path, *, prefer: str | None = None) -> LocalPostgres:
    """Start (or find) a PostgreSQL server; see the module docstring for the order tried.

    ``prefer`` forces one way (``"env"``, ``"pgserver"``, ``"system"``). Raises ``StoreError``
    saying what each way reported when none works.
    """
    datadir.mkdir(parents=True, exist_ok=True)
    external = os.environ.get(ENV_URL)
    ways: list[tuple[str, Callable[[], LocalPostgres]]] = []
    if external and prefer in (None, "env"):
        ways.append(("env", lambda: LocalPostgres(_sqlalchemy_url(external), "env")))
    if prefer in (None, "pgserver"):
        ways.append(("pgserver", lambda: _with_pgserver(datadir / "pgserver")))
    if prefer in (None, "system"):
        ways.append(("system", lambda: _with_system_postgres(datadir / "system")))
    failures = []
    for name, start in ways:
        try:
            return start()
        except Exception as exc:  # every way may fail in its own manner; report them all
            failures.append(f"{name}: {type(exc).__name__}: {exc}")
    raise StoreError("could not start PostgreSQL -- " + "; ".join(failures or ["no way to try"]))
