"""The python-asyncio contestant: the scenarios on CPython's own asyncio event loop, as
`asyncio.run` makes it (the default selector loop, epoll on Linux)."""

import asyncio

import protocol
from asyncio_scenarios import SCENARIOS

protocol.run(SCENARIOS, lambda main: asyncio.run(main()))
