"""`python -m fullgraph`: the command line."""

from fullgraph.cli import main

raise SystemExit(main())
