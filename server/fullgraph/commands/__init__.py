"""Subcommands of the `fullgraph` CLI."""
