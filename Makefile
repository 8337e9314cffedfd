# Fairway: `make run` serves the site locally, `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 8000
PG_TEST_URL ?= postgres://postgres@127.0.0.1:5432/fairway
REDIS_TEST_URL ?= redis://127.0.0.1:6379/0
CHROMIUM ?= /usr/bin/chromium


.PHONY: run serve test test-fast test-sqlite test-postgres test-e2e test-drill lint format bench bench-league bench-bots superuser clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# Stamps: reinstall only when a requirements file changes.
$(VENV)/.installed: requirements.txt | $(VENV)/bin/python
	$(PIP) install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(VENV)/bin/python
	$(PIP) install --quiet -r requirements-dev.txt
	touch $(VENV)/.installed $@

var:
	mkdir -p var/staticfiles

# Daphne, and beside it one task worker (reviews, league mail, re-rating) at the lowest
# priority, so that its work never takes a core from a move; Ctrl+C stops both.
run: $(VENV)/.installed | var
	$(PY) manage.py migrate --noinput
	@echo
	@echo "  Fairway is running at http://$(HOST):$(PORT)/  (Ctrl+C to stop)"
	@echo
	@nice -n 19 $(PY) manage.py db_worker --no-reload & worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker' EXIT INT TERM; \
	$(VENV)/bin/daphne -b $(HOST) -p $(PORT) config.asgi:application

# Production: WORKERS daphne processes from BASE_PORT and TASK_WORKERS task workers (see
# README.md).
serve: $(VENV)/.installed
	deploy/serve.sh

superuser: $(VENV)/.installed | var
	$(PY) manage.py createsuperuser

# The whole suite, phase by phase, each printing its wall time (README.md, "Testing",
# says which tests run in which phase). WORKERS: pytest processes per phase
# (pytest-xdist), one per core by default.
WORKERS ?= auto
PHASE := $(PY) tests/phase.py
PYTEST := $(PY) -m pytest -q -n $(WORKERS)
PG_ENV := --env DATABASE_URL=$(PG_TEST_URL) REDIS_URL=$(REDIS_TEST_URL)

test: lint test-sqlite test-postgres test-e2e test-drill

# The inner loop: the engine and the SQLite suite, the test database kept between runs.
test-fast: $(VENV)/.installed-dev | var
	@$(PHASE) test-fast -- $(PYTEST) -m "not e2e and not postgres" --reuse-db

# The engine and everything else but the browser, on SQLite with the in-memory layer.
test-sqlite: $(VENV)/.installed-dev | var
	@$(PHASE) test-sqlite -- $(PYTEST) -m "not e2e and not postgres"

# Again on PostgreSQL with Redis: only what differs between them (marked `postgres`
# or `both_databases`).
test-postgres: $(VENV)/.installed-dev | var
	@$(PHASE) test-postgres --needs postgres redis $(PG_ENV) -- \
		$(PYTEST) -m "not e2e and not drill and (postgres or both_databases)"

# The browser tests on the embedded default, then those marked `both_databases` on
# PostgreSQL with Redis.
test-e2e: $(VENV)/.installed-dev | var
	@$(PHASE) test-e2e --needs chromium -- $(PYTEST) -m e2e
	@$(PHASE) test-e2e-postgres --needs chromium postgres redis $(PG_ENV) -- \
		$(PYTEST) -m "e2e and both_databases"

# The drill of several hosts (tests/drill): two app hosts and nginx in front, each a
# network namespace of this machine, on PostgreSQL and Redis; one app host dies mid-hole.
# It needs root, iproute2, nftables, nginx and openssl (`.ci/run` installs them), and
# runs alone: its own processes are the load. It prints its figures (-raP).
test-drill: $(VENV)/.installed-dev | var
	@$(PHASE) test-drill --needs postgres redis namespaces nginx $(PG_ENV) -- \
		$(PY) -m pytest -q -n 0 -raP -m drill tests/drill

lint: $(VENV)/.installed-dev | var
	@$(PHASE) lint -- sh -c "$(VENV)/bin/ruff check . && $(VENV)/bin/ruff format --check . \
		&& $(VENV)/bin/lint-imports && $(PY) manage.py makemigrations --check --dry-run"

format: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# Benchmarks print figures; they assert nothing. The load benchmark needs PostgreSQL
# and Redis (as in production) and takes about twenty minutes with its search for the
# most tables each process count serves within 100 ms. Several processes get every
# seat of a table on one, as deploy/nginx.conf routes them; the last run spreads each
# table's seats over two (the worst case). It ends with one line per goal of the live
# path (tests/bench/goals.py), each saying whether it holds. The engine's figures
# leave out the bots' strength matches, which have a target of their own.
bench: $(VENV)/.installed-dev | var
	$(PY) tests/bench/bench_engine.py --timing
	$(PY) tests/bench/bench_render.py
	$(PY) tests/bench/bench_reviews.py
	$(MAKE) bench-league
	rm -f var/bench-load.jsonl
	$(PY) tests/bench/bench_load.py --processes 1,2 --tables 25,100,250 --seconds 15 --scenarios echo,fanout,table,bots --record var/bench-load.jsonl
	$(PY) tests/bench/bench_load.py --processes 1,2 --search --seconds 15 --record var/bench-load.jsonl
	$(PY) tests/bench/bench_load.py --processes 2 --tables 100 --seconds 15 --scenarios fanout,table --route seat
	@$(PY) tests/bench/goals.py var/bench-load.jsonl

# A league's history (tests/bench/bench_league.py): results, corrections and pages
# timed when the first season has 4 nights and after 3 seasons, on SQLite, then on
# PostgreSQL (a database of its own, made and dropped: PG_BENCH_URL). Each figure's
# goal is said, and whether it holds; the record is appended to var/bench-league.jsonl.
PG_BENCH_URL ?= postgres://postgres@127.0.0.1:5432/fairway_bench_league
bench-league: $(VENV)/.installed-dev | var
	$(PY) tests/bench/bench_league.py --database sqlite --record var/bench-league.jsonl
	DATABASE_URL=$(PG_BENCH_URL) $(PY) tests/bench/bench_league.py --database postgres \
		--record var/bench-league.jsonl

# The bots' strength matches (half an hour and more): the master against the experts
# in every game, the expert and the greedy bot against weaker seats.
bench-bots: $(VENV)/.installed-dev | var
	$(PY) tests/bench/bench_engine.py

clean:
	rm -rf var .pytest_cache .ruff_cache
