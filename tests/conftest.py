"""Suite-wide setup."""

import sys

from fullgraph.engine import RECURSION_LIMIT

# The engine raises the recursion limit on its first run; raising it before any test keeps
# Hypothesis from warning that a test changed it.
sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))

pytest_plugins = ["pytester"]
