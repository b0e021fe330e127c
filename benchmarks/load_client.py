"""A lean HTTP/1.1 client for the benchmarks' load: one kept-alive connection, requests written
whole, responses read by ``Content-Length``.

The load runs on the same machine as the servers it measures. httpx, the benchmarks' first
client, spent 1.0-1.9 ms of CPU per action -- more than the server it measured -- so on a
two-core machine the load generator took most of a core from the servers (its share is in every
throughput row). This client spends a fraction of that on the same requests: the same path,
bearer header and JSON body, the whole response read and its status checked. ``--client httpx``
in ``server.py`` still measures with httpx, to compare.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any
from urllib.parse import urlsplit

__all__ = ["LeanConnection", "LoadError"]


class LoadError(RuntimeError):
    """The server answered with an error status, or broke the connection."""


class LeanConnection:
    """One connection to ``url`` (``http://host:port``), opened on first use, kept alive."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self._host = parts.hostname or "127.0.0.1"
        self._port = parts.port or 80
        self._authority = f"{self._host}:{self._port}".encode()
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, token: str, body: dict[str, Any]) -> bytes:
        """POST ``body`` as JSON with ``Authorization: Bearer token``; the response body."""
        payload = json.dumps(body, separators=(",", ":")).encode()
        return await self._exchange(
            path,
            b"POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n"
            b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
            % (path.encode(), self._authority, token.encode(), len(payload), payload),
        )

    async def get(self, path: str) -> bytes:
        """GET ``path`` without credentials; the response body."""
        return await self._exchange(path, b"GET %s HTTP/1.1\r\nHost: %s\r\n\r\n" % (path.encode(), self._authority))

    async def _exchange(self, path: str, request: bytes) -> bytes:
        if self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(self._host, self._port)
        assert self._reader is not None
        self._writer.write(request)
        try:
            head = await self._reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError) as exc:
            await self.close()
            raise LoadError(f"the server closed the connection ({exc})") from None
        status = int(head[9:12])
        length = 0
        closing = False
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            lowered = name.strip().lower()
            if lowered == b"content-length":
                length = int(value)
            elif lowered == b"connection" and value.strip().lower() == b"close":
                closing = True
        answer = await self._reader.readexactly(length)
        if closing:
            await self.close()
        if status >= 400:
            raise LoadError(f"HTTP {status} for {path}: {answer[:200]!r}")
        return answer

    async def close(self) -> None:
        writer, self._writer, self._reader = self._writer, None, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()
