"""The python-uvloop contestant: the same asyncio scenarios as python-asyncio, on uvloop's
libuv-based event loop, started with `uvloop.run` as uvloop's docs show since 0.18."""

import uvloop

import protocol
from asyncio_scenarios import SCENARIOS

protocol.run(SCENARIOS, lambda main: uvloop.run(main()))
