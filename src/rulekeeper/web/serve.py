"""``rulekeeper serve``: uvicorn running :func:`rulekeeper.web.app.app_from_environment`.

Each worker process builds its own app from the environment (``RULEKEEPER_DB``), so several
workers share nothing but the database; live events reach every worker's clients through the
store's change watch (PostgreSQL ``LISTEN/NOTIFY``; SQLite ``PRAGMA data_version``).
"""

from __future__ import annotations

import os

from rulekeeper.errors import InputError

__all__ = ["serve"]


def serve(
    db: str | None, host: str, port: int, workers: int, *, log_level: str = "info", open_creation: bool = False
) -> None:
    import uvicorn

    from rulekeeper.store import resolve_url

    if workers < 1:
        raise InputError(f"{workers} workers", expected="1 or more")
    if not 0 <= port <= 65535:
        raise InputError(f"port {port}", expected="0 to 65535")
    url = resolve_url(db)
    if url.startswith("memory") and workers > 1:
        raise InputError("a memory store lives in one process", expected="--workers 1, or a database")
    os.environ["RULEKEEPER_DB"] = url
    shown_host = f"[{host}]" if ":" in host else host
    os.environ.setdefault("RULEKEEPER_BASE_URL", f"http://{shown_host}:{port}")
    os.environ["RULEKEEPER_OPEN_CREATION"] = "1" if open_creation else "0"
    # Open (and migrate) the database once before the workers start, so they never race to.
    from rulekeeper.campaign import open_store

    open_store(url).close()
    uvicorn.run(
        "rulekeeper.web.app:app_from_environment",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level=log_level,
        timeout_graceful_shutdown=3,
    )
