# Two commands do everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

ROUNDS ?= 1000
ARGS ?=

.PHONY: install run test bench lint clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,lint]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/arena run --rounds $(ROUNDS) $(ARGS)

test: $(STAMP)
	$(BIN)/python -m pytest -q $(ARGS)

bench: $(STAMP)
	$(BIN)/arena bench engine
	$(BIN)/arena bench protocol
	$(BIN)/arena bench tournament

lint: $(STAMP)
	$(BIN)/ruff check arena tests bots
	$(BIN)/ruff format --check arena tests
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
