"""Where a store lives: ``None`` (the ``RULEKEEPER_DB`` variable, else the user's data directory),
a plain file path (SQLite), or a URL (``sqlite:///...``, ``postgresql+psycopg://...``, ``memory://``)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from rulekeeper.errors import InputError

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["DEFAULT_FILE", "ENV_VAR", "default_path", "resolve_url"]

ENV_VAR = "RULEKEEPER_DB"
DEFAULT_FILE = "campaigns.db"
_SCHEMES = ("sqlite", "postgresql+psycopg", "memory")
_EXPECTED = "a file path, sqlite:///path, postgresql+psycopg://user@host/db or memory://"


def default_path() -> Path:
    from pathlib import Path

    return Path(_default_file())


def _default_file() -> str:
    import platformdirs

    return os.path.join(platformdirs.user_data_dir("rulekeeper"), DEFAULT_FILE)


def resolve_url(url: str | None = None) -> str:
    """The SQLAlchemy URL (or ``memory://``) a store opens; a plain path becomes a SQLite URL."""
    if url is None or not url.strip():
        url = os.environ.get(ENV_VAR, "").strip() or None
    # Plain os.path, not pathlib: every command passes here, and pathlib's imports cost more than this.
    if url is None:
        path = _default_file()
        os.makedirs(os.path.dirname(path), exist_ok=True)
        return f"sqlite:///{path}"
    url = url.strip()
    if "://" not in url:
        path = os.path.realpath(os.path.expanduser(url))
        parent = os.path.dirname(path)
        if not os.path.isdir(parent):
            raise InputError(f"no directory {parent!r} for the database file", expected=_EXPECTED)
        return f"sqlite:///{path}"
    scheme, _, rest = url.partition("://")
    scheme = scheme.lower()
    if scheme in ("postgresql", "postgres", "postgresql+psycopg3"):
        scheme = "postgresql+psycopg"
    if scheme not in _SCHEMES:
        raise InputError(f"unsupported database URL scheme {scheme!r}", expected=_EXPECTED)
    return f"{scheme}://{rest}"
