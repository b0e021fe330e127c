"""The client sessions a test's PostgreSQL database has open: counted, or ended from outside."""

from __future__ import annotations

# Only client backends: an autovacuum worker also names the database in `pg_stat_activity`
# while it works there, and it comes and goes on its own schedule (it once made a count one
# too many in CI).
# Nor these helpers' own earlier sessions: a closed connection's backend leaves the view a
# moment after the client has gone, and a count right after another once saw the last one.
_ADMIN = "rulekeeper-test-admin"
_OTHER_CLIENTS = (
    "FROM pg_stat_activity WHERE datname = current_database() "
    f"AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND application_name <> '{_ADMIN}'"
)


def _plain(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def client_sessions(url: str) -> int:
    """Client connections to `url`'s database other than the one asking."""
    import psycopg

    with psycopg.connect(_plain(url), autocommit=True, application_name=_ADMIN) as admin:
        row = admin.execute(f"SELECT count(*) {_OTHER_CLIENTS}").fetchone()
        return int(row[0]) if row else 0


def end_client_sessions(url: str) -> None:
    """End every other client connection to `url`'s database, as a restart or a failover does,
    and wait until each has ended (up to 5 s each): what a client does next meets a connection
    already closed, not one closing meanwhile (whose outcome a client cannot know)."""
    import psycopg

    with psycopg.connect(_plain(url), autocommit=True, application_name=_ADMIN) as admin:
        admin.execute(f"SELECT pg_terminate_backend(pid, 5000) {_OTHER_CLIENTS}")
