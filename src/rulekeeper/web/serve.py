"""``rulekeeper serve``: uvicorn running :func:`rulekeeper.web.app.app_from_environment`.

Each worker process builds its own app from the environment (``RULEKEEPER_DB``), so several
workers share nothing but the database; live events reach every worker's clients through the
store's change watch (``rulekeeper.store.changes``: the heads read every 50 ms on PostgreSQL;
SQLite ``PRAGMA data_version``).
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from rulekeeper.errors import InputError

if TYPE_CHECKING:
    import uvicorn

__all__ = ["serve", "shared_listener", "worker_listeners"]

_APP = "rulekeeper.web.app:app_from_environment"


def shared_listener(config: uvicorn.Config) -> socket.socket:
    """The listening socket (one worker's, or several workers' to share), made so that its
    connections send at once.

    uvicorn binds it with ``socket.socket(family)``, whose ``proto`` is 0; accepted connections
    inherit that, and asyncio turns Nagle's algorithm off (``TCP_NODELAY``) only on sockets
    whose ``proto`` is ``IPPROTO_TCP``. With Nagle on, a response written in two pieces (uvicorn
    writes the headers, then the body) holds the body back until the client acknowledges the
    headers -- and the client delays that acknowledgement by 40 ms, waiting for the rest: every
    request on a kept-alive connection cost ~40 ms more with ``--workers 2`` than with one (the
    single-worker path lets asyncio bind from ``getaddrinfo``, which reports ``IPPROTO_TCP``).
    Upstream: https://github.com/Kludex/uvicorn/issues/3149.
    """
    sock = config.bind_socket()
    if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.proto != socket.IPPROTO_TCP:
        tcp = socket.socket(sock.family, sock.type, socket.IPPROTO_TCP, fileno=sock.detach())
        tcp.set_inheritable(True)
        return tcp
    return sock


class _ListenerPerWorker(socket.socket):
    """The parent's socket, holding the address (bound, never listening), which each spawned
    worker receives as a listening socket of its own on the same address (``SO_REUSEPORT``).

    One socket shared by every worker balances badly: asyncio accepts every waiting connection
    at once, so the worker that wakes first takes them all. Measured with two workers and ten
    campaigns, one worker served nearly every request and the other sat idle (the profile of
    each). With a socket per worker the kernel spreads new connections over the workers.

    uvicorn hands the sockets to each worker it spawns (and to a worker it restarts) by
    pickling them; this class pickles as "open a socket of your own on my address", so every
    worker, restarted ones too, joins the group without any change to uvicorn's supervisor."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _reuse_port_socket, (self.family, self.getsockname())


def _reuse_port_socket(family: int, address: tuple[Any, ...]) -> socket.socket:
    """A TCP socket bound to ``address`` beside the others of its group (``SO_REUSEPORT``).
    Its ``proto`` is ``IPPROTO_TCP``, so asyncio turns Nagle's algorithm off on the connections
    it accepts (see ``shared_listener``); the worker's server makes it listen."""
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(address)
    except BaseException:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def _refuse_a_taken_port(family: int, address: tuple[Any, ...]) -> None:
    """``OSError`` if something already listens on ``address``. ``SO_REUSEPORT`` would let this
    server join any group of the same user's sockets there -- a second ``serve`` started by
    mistake on the same port, perhaps on another database -- and take half its connections. A
    plain bind (``SO_REUSEADDR`` only, so connections of a server just stopped do not count)
    fails when anything listens there, as ``serve --workers 1`` does."""
    probe = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(address)
    finally:
        probe.close()


def worker_listeners(config: uvicorn.Config) -> socket.socket:
    """For several workers: a socket per worker on one address where the platform balances
    connections over such sockets (Linux), else the one shared socket of ``shared_listener``."""
    if (
        not sys.platform.startswith("linux")
        or not hasattr(socket, "SO_REUSEPORT")
        or config.uds is not None
        or config.fd is not None
    ):
        return shared_listener(config)
    family = socket.AF_INET6 if config.host and ":" in config.host else socket.AF_INET
    try:
        if config.port:
            _refuse_a_taken_port(family, (config.host, config.port))
        held = _reuse_port_socket(family, (config.host, config.port))
    except OSError as exc:
        raise InputError(
            f"cannot listen on {config.host}:{config.port} ({exc.strerror or exc})", expected="a free port"
        ) from None
    listener = _ListenerPerWorker(held.family, held.type, held.proto, fileno=held.detach())
    listener.set_inheritable(True)
    return listener


def _check_limits() -> None:
    """Refuse a limit set in the environment that is not a positive number, before starting
    (the workers would quietly take the default instead)."""
    from rulekeeper.web.guard import LIMIT_VARIABLES

    for name in LIMIT_VARIABLES:
        text = os.environ.get(name, "").strip()
        try:
            ok = not text or float(text) > 0
        except ValueError:
            ok = False
        if not ok:
            raise InputError(f"{name}={text!r}", expected="a number above 0 (docs/api.md, Limits)")


def serve(
    db: str | None,
    host: str,
    port: int,
    workers: int,
    *,
    log_level: str = "info",
    open_creation: bool = False,
    access_log: bool = False,
    public_url: str | None = None,
) -> None:
    """Run the server. ``access_log`` writes a line per request (off by default: formatting and
    writing it cost about a twentieth of an action's CPU; tokens in it are always masked).
    ``public_url`` is where links point (else ``RULEKEEPER_BASE_URL``, else the address and port
    actually bound, which :mod:`rulekeeper.links` records so the CLI's links point here too)."""
    import uvicorn

    from rulekeeper.links import BASE_URL_VAR, check_base_url
    from rulekeeper.store import resolve_url

    if workers < 1:
        raise InputError(f"{workers} workers", expected="1 or more")
    if not 0 <= port <= 65535:
        raise InputError(f"port {port}", expected="0 to 65535")
    _check_limits()
    chosen = public_url if public_url is not None else os.environ.get(BASE_URL_VAR, "").strip() or None
    if chosen is not None:
        chosen = check_base_url(chosen, "--public-url" if public_url is not None else BASE_URL_VAR)
    url = resolve_url(db)
    if url.startswith("memory") and workers > 1:
        raise InputError("a memory store lives in one process", expected="--workers 1, or a database")
    os.environ["RULEKEEPER_DB"] = url
    os.environ["RULEKEEPER_OPEN_CREATION"] = "1" if open_creation else "0"
    os.environ["RULEKEEPER_SERVE_WORKERS"] = str(workers)
    # Open (and migrate) the database once before the workers start, so they never race to.
    from rulekeeper.campaign import open_store

    open_store(url).close()
    from rulekeeper.web.guard import env_number
    from rulekeeper.web.protocol import GuardedH11Protocol

    options: dict[str, Any] = {
        "factory": True,
        # Headers within RULEKEEPER_HEADER_TIMEOUT, a cap on connections (rulekeeper.web.protocol).
        "http": GuardedH11Protocol,
        "timeout_keep_alive": env_number("RULEKEEPER_KEEPALIVE_TIMEOUT", 5.0),
        "host": host,
        "port": port,
        "workers": workers,
        "log_level": log_level,
        "access_log": access_log,
        "timeout_graceful_shutdown": 3,
        # No "server: uvicorn" on every answer: it tells a prober what runs here, and nobody
        # else reads it (the Date header stays: HTTP asks a server with a clock to send it).
        "server_header": False,
    }
    config = uvicorn.Config(_APP, **options)
    # Bound here, before any worker starts, so links name the port really bound (--port 0 too).
    listener = shared_listener(config) if workers == 1 else worker_listeners(config)
    with _announced(url, host, listener, chosen):
        if workers == 1:
            server = uvicorn.Server(config)
            with contextlib.suppress(KeyboardInterrupt):
                server.run(sockets=[listener])
            if not server.started:
                raise SystemExit(3)  # as uvicorn.run: the app failed to start (its log says why)
            return
        # What uvicorn.run does for several workers, with the listening socket fixed (see above).
        from uvicorn.supervisors import Multiprocess

        with contextlib.suppress(KeyboardInterrupt):
            Multiprocess(config, sockets=[listener]).run()


@contextlib.contextmanager
def _announced(db_url: str, host: str, listener: socket.socket, chosen: str | None) -> Iterator[None]:
    """While serving: the workers' ``RULEKEEPER_BASE_URL`` is where links point, the terminal
    says so, and the record of :mod:`rulekeeper.links` tells the CLI (gone when serve ends)."""

    from rulekeeper.links import BASE_URL_VAR, forget_server, listening_url, record_server

    bound = listening_url(host, int(listener.getsockname()[1]))
    base = chosen or bound
    os.environ[BASE_URL_VAR] = base
    print(f"rulekeeper serve: listening on {bound}; links point to {base}", file=sys.stderr, flush=True)
    pid = os.getpid()
    try:
        record_server(db_url, base, pid)
    except OSError as exc:  # an unwritable config directory must not stop the table
        print(f"rulekeeper serve: warning: the CLI's links will not name this address ({exc})", file=sys.stderr)
    try:
        yield
    finally:
        forget_server(db_url, pid)
