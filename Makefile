# fullgraph: `make demo` runs the checker on the bundled fixtures, `make test` runs every test.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test fuzz e2e-vscode system-deps bench docs clean

$(BIN)/python:
	$(PY) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/fullgraph check fixtures/ --statistics; test $$? -le 1

test: $(STAMP) system-deps
	$(BIN)/python -m pytest -q -n 2

# A long fuzz run (analysis, fix-all, the language server): FUZZ_EXAMPLES inputs per fuzz test
# (`make fuzz FUZZ_EXAMPLES=20000`); failing inputs are kept in tests/fuzz/regressions/.
FUZZ_EXAMPLES ?= 4000
fuzz: $(STAMP)
	FULLGRAPH_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) FULLGRAPH_FUZZ_SAVE=1 $(BIN)/python -m pytest tests/fuzz -q -n 2 \
	  -p no:randomly -k "not test_regressions"

e2e-vscode: $(STAMP)
	PYTHON=$(abspath $(BIN)/python) bash vscode-client/e2e/run.sh

# Editor clients the end-to-end tests drive: Neovim and Chromium (Debian packages).
system-deps:
	@command -v nvim >/dev/null && command -v chromium >/dev/null || { \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q neovim chromium; }

# Figures for the README: checker accuracy on the Dynamo-verified corpus, speed on transformers.
bench: $(STAMP)
	$(BIN)/pip install -q -e '.[bench]'
	$(BIN)/python bench/corpus_accuracy.py
	$(BIN)/python bench/analysis_speed.py
	$(BIN)/python bench/function_length.py

docs: $(STAMP)
	$(BIN)/python -m fullgraph.rules.docs docs/rules

clean:
	rm -rf $(VENV) .pytest_cache
