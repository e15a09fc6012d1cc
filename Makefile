# Quick start: `make demo` runs the main job on the embedded default, `make test` runs the suite.
# Both create a local virtual environment in .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv demo test test-all lint format bench clean test-flower

venv: $(STAMP)

# torch==2.13.0 is installed first: on this machine it is a CPU wheel already on disk, and it
# satisfies the package's `torch>=2.2` so pip pulls no CUDA build. A user with a GPU installs
# the CUDA build of their choice into the venv before `pip install -e .`.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet "torch==2.13.0" || $(BIN)/pip install --quiet "torch>=2.2"
	$(BIN)/pip install --quiet -e ".[dev]"
	sh .ci/fashion_mnist.sh
	touch $(STAMP)

# The report on the embedded default (the CA-Fed paper's population of 100 clients); prints the
# path of report.html (a rerun replaces it). About 1 min on 2 shared cores; `--quick` is faster.
demo: venv
	$(BIN)/fltheory report --out demo-report --overwrite

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy fltheory

format: venv
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# One BLAS thread per pytest worker: two workers on two cores, no oversubscription; the
# derandomized Hypothesis profile (conftest.py): every machine draws the same examples.
TEST_ENV := OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 HYPOTHESIS_PROFILE=ci

# The suite: tests/ plus every docstring example of the package (doctests).
PYTEST := $(TEST_ENV) $(BIN)/python -m pytest -n 2 -q tests fltheory --doctest-modules

test: lint
	$(PYTEST) -m "not slow"

test-all: lint
	$(PYTEST)

bench: venv
	for f in benchmarks/bench_*.py; do $(BIN)/python $$f || exit 1; done

# Flower strategies (fltheory.flower): their own environment with the `flower` extra (Flower 1.41
# with its Ray simulation engine, ~0.5 GB on top of torch), then the tests marked `flower`.
FLOWER_VENV := .venv-flower
FLOWER_STAMP := $(FLOWER_VENV)/.installed

$(FLOWER_STAMP): pyproject.toml
	$(PYTHON) -m venv $(FLOWER_VENV)
	$(FLOWER_VENV)/bin/pip install --quiet "torch==2.13.0" || $(FLOWER_VENV)/bin/pip install --quiet "torch>=2.2"
	$(FLOWER_VENV)/bin/pip install --quiet -e ".[flower]"
	touch $(FLOWER_STAMP)

test-flower: $(FLOWER_STAMP)
	$(TEST_ENV) $(FLOWER_VENV)/bin/python -m pytest -q -m flower tests/flower

clean:
	rm -rf $(VENV) $(FLOWER_VENV) .pytest_cache .hypothesis .ruff_cache demo-report
