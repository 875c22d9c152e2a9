"""What the socket scenarios (echo, connections: docs/PROTOCOL.md §4) share in every Python
contestant: the address, the size of a server's read, the byte pattern and the countdown
that tells the main task every client is connected. The sockets themselves are each
runtime's own (asyncio_scenarios.py, trio_scenarios.py, gevent_scenarios.py).
"""

from typing import Protocol

HOST = "127.0.0.1"
"""The loopback address every listener binds (on an ephemeral port) and every client dials."""

READ_SIZE = 65_536
"""A server's read: up to 64 KiB of what has arrived."""


def request(client: int, round_: int, size: int) -> bytes:
    """What client `client` writes in round `round_`: `size` bytes, each of value
    (client + round) mod 255 + 1, never 0."""
    return bytes(((client + round_) % 255 + 1,)) * size


class Event(Protocol):
    """The runtime's event (asyncio.Event, trio.Event, gevent.event.Event): set once, waited
    for by any number of tasks."""

    def set(self) -> None: ...


class Countdown:
    """A latch made of the runtime's own event: `count_down()` called `count` times sets
    it (at once when `count` is 0). The runtimes have no latch of their own; every task
    runs on the one event-loop thread, so the count needs no lock."""

    def __init__(self, count: int, event: Event) -> None:
        self.left = count
        self.event = event
        if count == 0:
            event.set()

    def count_down(self) -> None:
        self.left -= 1
        if self.left == 0:
            self.event.set()
