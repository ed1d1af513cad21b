"""The fullgraph language server (pygls 2): a thin front end over the engine and the fixes."""
