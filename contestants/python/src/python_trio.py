"""The python-trio contestant: the scenarios on trio's own event loop, started with
`trio.run` in its default configuration."""

import trio

import protocol
from trio_scenarios import SCENARIOS

protocol.run(SCENARIOS, trio.run)
