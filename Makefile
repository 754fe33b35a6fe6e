# Two commands on a fresh machine: `make demo` (the main job) and `make test` (the whole suite).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench compiled venv clean system-deps

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/kibic demo $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy $$(for p in referee vision firmware_bridge web kibic club models training; do [ -f $$p/__init__.py ] && echo $$p; done) benchmarks tools

# what the tests need from the system, installed with apt-get when run as root on Debian/Ubuntu,
# otherwise named with the command that installs it: chromium (the dashboard's browser tests),
# postgresql (the club server's tests), librsvg2-bin (rsvg-convert renders the printed-deck
# artwork), the DejaVu fonts (the procedural card designs)
SYSTEM_PACKAGES := chromium postgresql librsvg2-bin fonts-dejavu-core fonts-dejavu-extra

system-deps:
	@bash tools/system-deps.sh $(SYSTEM_PACKAGES)

test: $(STAMP) system-deps
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy $$(for p in referee vision firmware_bridge web kibic club models training; do [ -f $$p/__init__.py ] && echo $$p; done) benchmarks tools
	$(BIN)/pytest

# the referee compiled to C with mypyc, in build/compiled-referee (a few minutes; optional: without
# a C compiler it says so and the referee stays interpreted), then compared with the interpreted
# one on 50 seeded deals of every game; `make bench` uses it when built from the current sources
compiled: $(STAMP)
	$(BIN)/python tools/compiled_referee.py build
	$(BIN)/python tools/compiled_referee.py check

bench: $(STAMP)
	PYTHONPATH="$$($(BIN)/python tools/compiled_referee.py path)" $(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build/compiled-referee
