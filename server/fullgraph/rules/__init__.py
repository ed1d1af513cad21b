"""The rule catalog and detectors, one module per family (FG1xx..FG4xx)."""
