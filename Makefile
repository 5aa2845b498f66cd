# Two commands do everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# `make run`'s default: 200 rounds, 2,400 games of the default field (README says what it took
# on 2 cores); `make run ROUNDS=1000` or `arena run --rounds 1000` plays the full 12,000.
ROUNDS ?= 200
ARGS ?=

.PHONY: install run test soak bench lint screenshots clean

$(STAMP): pyproject.toml
	@# bubblewrap isolates bots (no network, read-only filesystem); without it the
	@# arena falls back to weaker isolation with a warning, so a failure here is not fatal.
	@command -v bwrap >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
		&& (apt-get update -qq && apt-get install -y -qq bubblewrap) >/dev/null 2>&1 \
		|| echo "note: bubblewrap is not installed; bots run with weaker isolation"; }
	@# Debian's chromium and chromium-driver run the report and replay pages in the browser
	@# tests (tests/test_html_browser.py); without them those tests are skipped, with a note.
	@command -v chromedriver >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
		&& (apt-get update -qq && apt-get install -y -qq chromium chromium-driver) >/dev/null 2>&1 \
		|| echo "note: chromium is not installed; the browser tests will be skipped"; }
	@# Debian's postgresql: the league's tests start a server of their own from it
	@# (tests/postgres_support.py); without it those tests are skipped, with a note.
	@{ command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; } \
		|| { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
		&& (apt-get update -qq && apt-get install -y -qq postgresql) >/dev/null 2>&1 \
		|| echo "note: postgresql is not installed; the PostgreSQL league tests will be skipped"; }
	@# Debian's nginx: tests/test_hostile_league_proxy.py runs docs/nginx-league.conf with it
	@# (a server of its own, in a temporary folder); without it that test is skipped, with a note.
	@{ command -v nginx >/dev/null || test -x /usr/sbin/nginx; } \
		|| { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
		&& (apt-get update -qq && apt-get install -y -qq nginx) >/dev/null 2>&1 \
		|| echo "note: nginx is not installed; the reverse-proxy league test will be skipped"; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,lint,ecosystem,postgresql]'
	@# Debian's toolchains of the starters in bots/ (tests/test_starters.py builds and checks
	@# each): the packages `arena languages --missing` names, about 110 MB to download (Go,
	@# Kotlin, Mono's C#, TypeScript, Ruby, PHP, Lua; Rust and Java too where missing), a
	@# minute or two; without them those starters' tests are skipped, with a note.
	@missing="$$($(BIN)/arena languages --missing)"; [ -z "$$missing" ] \
		|| { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
		&& (apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing) >/dev/null 2>&1 \
		|| echo "note: $$missing not installed; the starters' tests of those languages will be skipped"; }
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/arena run --rounds $(ROUNDS) $(ARGS)

# The suite on every core (pytest-xdist: a worker per logical CPU, since `auto` counts
# physical cores and gives one worker on a 2-thread machine), the tests one by one to
# whichever worker is free, but a module's tests together where they share a fixture
# (tests/conftest.py); then its 15 slowest tests. ARGS="-n 4" for another number of
# workers, ARGS=tests/test_x.py for one file.
test: $(STAMP)
	$(BIN)/python -m pytest -q -n logical --dist loadgroup --durations=15 $(ARGS)

# Takenoko's invariants over 3,000 random games (1,000 per option set): 38 minutes here
# with a tournament on the other core.
soak: $(STAMP)
	ARENA_SOAK_GAMES=1000 $(BIN)/python -m pytest -q --timeout=3600 tests/test_takenoko_invariants.py

bench: $(STAMP)
	$(BIN)/arena bench engine --game flowers
	$(BIN)/arena bench engine --game takenoko --games 300
	$(BIN)/arena bench engine --game takenoko --game-option chibis=true --games 300
	$(BIN)/arena bench protocol
	$(BIN)/arena bench tournament
	$(BIN)/arena bench tournament --cluster local:2
	$(BIN)/arena bench sandbox
	$(BIN)/arena bench stats
	$(BIN)/arena bench fit
	$(BIN)/arena bench league
	$(BIN)/arena bench openspiel --simulations 100

# docs/play-as-a-human.md's screenshots, of the real page: the browser tests play a game of
# each game on it (results/screenshots/), then their mid-game and end go to docs/ (256 colours).
screenshots: $(STAMP)
	$(BIN)/python -m pytest -q tests/test_human_browser.py -k whole_game
	for game in mandala flowers takenoko-chibis; do for moment in playing over; do \
		cp results/screenshots/human-$$game-$$moment.png docs/ || exit 1; done; done

lint: $(STAMP)
	$(BIN)/ruff check arena tests bots
	$(BIN)/ruff format --check arena tests
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
