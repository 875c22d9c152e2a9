"""The python-gevent contestant: the scenarios as greenlets on gevent's hub, in its default
configuration (the libev loop), with no monkey-patching: they use only gevent's own
primitives."""

import protocol
from gevent_scenarios import SCENARIOS

protocol.run_blocking(SCENARIOS)
