"""Prints the one version line of a Python contestant's manifest: the interpreter, then
each library named on the command line as installed in the running environment."""

import platform
import sys
from importlib.metadata import version

parts = [f"{platform.python_implementation()} {platform.python_version()}"]
parts += [f"{name} {version(name)}" for name in sys.argv[1:]]
print(", ".join(parts))
