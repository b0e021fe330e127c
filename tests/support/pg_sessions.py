"""Counting the client sessions a test's PostgreSQL database has open."""

from __future__ import annotations


def client_sessions(url: str) -> int:
    """Client connections to `url`'s database other than the one asking.

    Only client backends count: an autovacuum worker also names the database in
    `pg_stat_activity` while it works there, and it comes and goes on its own
    schedule (it once made the count one too many in CI).
    """
    import psycopg

    plain = url.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(plain, autocommit=True) as admin:
        row = admin.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
        ).fetchone()
        return int(row[0]) if row else 0
