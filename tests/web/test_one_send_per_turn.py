"""The server's transport joins what a response writes in one turn of the event loop into one
write of the real socket, keeps the order, sends what is pending before closing, and drops it
on an abort (a real socket pair and a real event loop)."""

from __future__ import annotations

import asyncio
import socket

from rulekeeper.web.protocol import _OneSendPerTurn


def _received(peer: socket.socket) -> bytes:
    try:
        return peer.recv(65536)
    except BlockingIOError:
        return b""


def test_writes_of_one_turn_leave_together_and_in_order() -> None:
    async def run() -> None:
        loop = asyncio.get_running_loop()
        ours, peer = socket.socketpair()
        peer.setblocking(False)
        transport, _ = await loop.connect_accepted_socket(asyncio.Protocol, ours)
        joined = _OneSendPerTurn(transport, loop)
        joined.write(b"HTTP/1.1 200 OK\r\n\r\n")
        joined.write(b"")
        joined.write(memoryview(b'{"ok":true}'))
        assert joined.get_write_buffer_size() == len(b"HTTP/1.1 200 OK\r\n\r\n") + len(b'{"ok":true}')
        assert _received(peer) == b""  # held until the turn ends
        await asyncio.sleep(0)
        assert _received(peer) == b'HTTP/1.1 200 OK\r\n\r\n{"ok":true}'

        joined.writelines([b"last", b" words"])
        joined.close()  # what is pending goes before the close
        await asyncio.sleep(0.05)
        peer.setblocking(True)
        peer.settimeout(5)
        assert peer.recv(65536) == b"last words"
        assert peer.recv(65536) == b""  # closed
        assert joined.is_closing()
        peer.close()

    asyncio.run(run())


def test_an_abort_drops_what_is_pending() -> None:
    async def run() -> None:
        loop = asyncio.get_running_loop()
        ours, peer = socket.socketpair()
        transport, _ = await loop.connect_accepted_socket(asyncio.Protocol, ours)
        joined = _OneSendPerTurn(transport, loop)
        joined.write(b"never sent")
        joined.abort()
        await asyncio.sleep(0.05)
        peer.settimeout(5)
        assert peer.recv(65536) == b""
        peer.close()

    asyncio.run(run())
