# fullgraph: `make demo` runs the checker on the bundled fixtures, `make test` runs every test.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test fuzz e2e-vscode system-deps bench bench-confirm docs clean ecosystem-venv ecosystem ecosystem-extend ecosystem-score ecosystem-fix ecosystem-sweep ecosystem-quickfixes ecosystem-userview

$(BIN)/python:
	$(PY) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/fullgraph check fixtures/ --statistics; test $$? -le 1

test: $(STAMP) system-deps
	$(BIN)/python -m pytest -q -n 2

# A long fuzz run (analysis, fix-all, the language server): FUZZ_EXAMPLES analysis inputs, the slower
# targets in proportion (1000: about 10 minutes on 2 cores); failing inputs go to tests/fuzz/regressions/
FUZZ_EXAMPLES ?= 1000
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
	$(BIN)/python bench/scaling.py

# Ecosystem bench (bench/ecosystem/README.md): real models of transformers, diffusers,
# torch-geometric, pyro, kornia and x-transformers under Dynamo, in their own pinned venv.
ECO := bench/ecosystem
ECO_STAMP := $(ECO)/.venv/.installed
ECO_PACKAGES := diffusers e3nn gpytorch kornia litgpt monai neuralop normflows peft pykeen pyro pytorch_metric_learning stable_baselines3 torch_frame torch_geometric torchdiffeq torchmetrics transformers vector_quantize_pytorch x_transformers

$(ECO_STAMP): $(ECO)/requirements.txt $(ECO)/requirements-nodeps.txt
	$(PY) -m venv $(ECO)/.venv
	$(ECO)/.venv/bin/python -m pip install -q -r $(ECO)/requirements.txt
	$(ECO)/.venv/bin/python -m pip install -q --no-deps -r $(ECO)/requirements-nodeps.txt
	touch $(ECO_STAMP)

ecosystem-venv: $(ECO_STAMP)

# Long (hours on 2 cores): regenerate every package's stored truth from scratch, then score it.
ecosystem: $(ECO_STAMP) $(STAMP)
	for p in $(ECO_PACKAGES); do $(BIN)/python $(ECO)/generate.py $$p --force || exit 1; done
	$(BIN)/python $(ECO)/score.py

# Resume or extend the stored truth: runs only the models (and variants) it does not hold yet.
ecosystem-extend: $(ECO_STAMP) $(STAMP)
	for p in $(ECO_PACKAGES); do $(BIN)/python $(ECO)/generate.py $$p || exit 1; done

# Seconds: score this checkout's `fullgraph check` against the stored truth.
ecosystem-score: $(ECO_STAMP) $(STAMP)
	$(BIN)/python $(ECO)/score.py

# Re-runs the models that broke, original and fixed (tens of minutes).
ecosystem-fix: $(ECO_STAMP) $(STAMP)
	$(BIN)/python $(ECO)/fixmode.py

# Minutes (the first run builds each recorded model once, in the bench venv): the user's view, a
# script compiling each recorded model with its package installed, against that model's breaks.
ecosystem-userview: $(ECO_STAMP) $(STAMP)
	$(BIN)/python $(ECO)/userview.py

# Minutes: check and fix-all on installed packages no run was recorded for (crashes, files that
# no longer compile or import, fix-all idempotence).
ecosystem-sweep: $(ECO_STAMP) $(STAMP)
	$(BIN)/python $(ECO)/sweep.py

# Minutes: every quick fix of every finding on the recorded packages' files, applied alone (code
# that no longer compiles, a comment dropped, an internal error after, a crash computing a fix).
ecosystem-quickfixes: $(ECO_STAMP) $(STAMP)
	$(BIN)/python $(ECO)/quickfixes.py

# Share of transformers model types `fullgraph confirm` runs without a factory, and its break lines
# against the ecosystem ground truth (the bench venv's interpreter has transformers).
bench-confirm: $(ECO_STAMP) $(STAMP)
	$(BIN)/python bench/confirm_without_factory.py --python $(ECO)/.venv/bin/python --limit 100

docs: $(STAMP)
	$(BIN)/python -m fullgraph.rules.docs docs/rules

clean:
	rm -rf $(VENV) .pytest_cache
