"""Static analysis: import aliases, compiled regions, tensor facts and the per-function walk."""
