# Two commands on a fresh machine: `make demo` (the main job) and `make test` (the whole suite).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench venv clean system-deps

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
	$(BIN)/mypy $$(for p in referee vision firmware_bridge web kibic club models training; do [ -f $$p/__init__.py ] && echo $$p; done)

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
	$(BIN)/mypy $$(for p in referee vision firmware_bridge web kibic club models training; do [ -f $$p/__init__.py ] && echo $$p; done)
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
