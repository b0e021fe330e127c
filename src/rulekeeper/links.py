"""Where links point: join links, and the address a running ``rulekeeper serve`` answers at.

A join link is only useful if it reaches the server, so every printed link and QR code takes
its base from, in this order:

1. an explicit address (``campaign new/invite --url``, ``serve --public-url``);
2. ``RULEKEEPER_BASE_URL`` in the environment (a proxy's public address, docs/deployment.md);
3. for the CLI, the address a ``rulekeeper serve`` on the same database recorded when it bound
   its port (:func:`record_server`), while that process still runs;
4. ``http://127.0.0.1:8000``, serve's default.

The record is a small JSON file per database in the user's config directory (beside the CLI's
remembered selection, ``RULEKEEPER_CONFIG``), named by a digest of the database's URL: a file
per database means two servers on two databases never rewrite each other's record. We chose a
file over a row in the database because the database's schema is the campaigns', and a record
of a process belongs to the machine that runs it; two machines serving one PostgreSQL database
set ``RULEKEEPER_BASE_URL`` instead (their proxy's address).

The token of a join link rides in the fragment (``/join#token=...``): a browser never sends a
fragment to a server, so the token stays out of access logs, proxies and ``Referer``; the join
page's script hands it over in a same-origin POST (docs/api.md, "Pages").
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
from urllib.parse import quote, urlsplit

from rulekeeper.errors import InputError

__all__ = [
    "BASE_URL_VAR",
    "DEFAULT_BASE_URL",
    "check_base_url",
    "forget_server",
    "join_link",
    "link_base",
    "listening_url",
    "record_server",
    "recorded_server",
]

#: The environment variable naming the server's public address.
BASE_URL_VAR = "RULEKEEPER_BASE_URL"
#: ``rulekeeper serve``'s own default address.
DEFAULT_BASE_URL = "http://127.0.0.1:8000"
_WILDCARDS = frozenset({"0.0.0.0", "::", ""})


def check_base_url(url: str, what: str = "--url") -> str:
    """``url`` as a link base (no trailing slash), or an error naming the expected form."""
    text = url.strip()
    expected = "http://HOST[:PORT] or https://HOST[/PATH], PORT from 1 to 65535"
    try:
        parts = urlsplit(text)
        port = parts.port  # reading it checks it: a number from 0 to 65535
    except ValueError:  # an unclosed [IPv6 address, a port that is no number or out of range
        raise InputError(f"{what} {url[:200]!r} is not a server address", expected=expected) from None
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or port == 0
        or parts.query
        or parts.fragment
        or parts.username is not None
        or any(c.isspace() or not c.isprintable() for c in text)
    ):
        raise InputError(f"{what} {url[:200]!r} is not a server address", expected=expected)
    return text.rstrip("/")


def join_link(base: str, campaign: str, token: str) -> str:
    """The link a member opens: the campaign's join page, the token in the fragment."""
    return f"{base.rstrip('/')}/campaigns/{quote(campaign, safe='')}/join#token={quote(token, safe='.-_~')}"


def listening_url(host: str, port: int) -> str:
    """The address of a server bound to ``host``:``port``. A wildcard host (all interfaces) is
    named by this machine's address on its default route, which phones on the same network can
    reach; with no network at all, by the loopback address."""
    if host in _WILDCARDS:
        host = _outward_address() or "127.0.0.1"
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def _outward_address() -> str | None:
    # A UDP "connect" sends nothing; it only asks the kernel which local address would be used.
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
            address: str = probe.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("0.") else address


def _records_dir() -> str:
    config = os.environ.get("RULEKEEPER_CONFIG")
    if config:
        return os.path.join(os.path.dirname(os.path.abspath(config)), "servers")
    from platformdirs import user_config_dir

    return os.path.join(user_config_dir("rulekeeper"), "servers")


def _record_path(db_url: str) -> str:
    return os.path.join(_records_dir(), hashlib.sha256(db_url.encode()).hexdigest()[:24] + ".json")


def record_server(db_url: str, url: str, pid: int) -> None:
    """Remember that process ``pid`` serves ``db_url`` at ``url`` (replacing any older record)."""
    import tempfile

    path = _record_path(db_url)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with tempfile.NamedTemporaryFile(
        "w", dir=os.path.dirname(path), suffix=".tmp", delete=False, encoding="utf-8"
    ) as tmp:
        tmp.write(json.dumps({"database": db_url, "url": url, "pid": pid}))
    os.replace(tmp.name, path)


def forget_server(db_url: str, pid: int) -> None:
    """Drop the record of ``db_url`` if process ``pid`` made it (a newer server's is kept)."""
    path = _record_path(db_url)
    held = _read(path)
    if held is not None and held[1] == pid:
        # Another process may have removed or replaced it meanwhile.
        with contextlib.suppress(OSError):
            os.remove(path)


def _read(path: str) -> tuple[str, int] | None:
    try:
        with open(path, encoding="utf-8") as file:
            data = json.loads(file.read())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("url"), str) or not isinstance(data.get("pid"), int):
        return None
    return data["url"], data["pid"]


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: it exists
    except OSError:
        return False
    return True


def recorded_server(db_url: str) -> str | None:
    """The address a ``rulekeeper serve`` still running on ``db_url`` recorded, if any."""
    held = _read(_record_path(db_url))
    if held is None or not _running(held[1]):
        return None
    return held[0]


def link_base(explicit: str | None, db_url: str | None) -> tuple[str, str]:
    """The base of a printed link, and where it came from (``--url``, the environment, a
    running server, or serve's default) -- the order of this module's docstring."""
    if explicit is not None and explicit.strip():
        return check_base_url(explicit), "--url"
    from_env = os.environ.get(BASE_URL_VAR, "").strip()
    if from_env:
        return check_base_url(from_env, BASE_URL_VAR), BASE_URL_VAR
    if db_url is not None:
        running = recorded_server(db_url)
        if running is not None:
            return running, "serve"
    return DEFAULT_BASE_URL, "default"
