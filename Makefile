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


.PHONY: run serve test test-sqlite test-postgres test-e2e lint format bench superuser clean

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

run: $(VENV)/.installed | var
	$(PY) manage.py migrate --noinput
	@echo
	@echo "  Fairway is running at http://$(HOST):$(PORT)/  (Ctrl+C to stop)"
	@echo
	$(VENV)/bin/daphne -b $(HOST) -p $(PORT) config.asgi:application

# Production: WORKERS daphne processes from BASE_PORT (see README.md).
serve: $(VENV)/.installed
	deploy/serve.sh

superuser: $(VENV)/.installed | var
	$(PY) manage.py createsuperuser

# The whole suite: SQLite with the in-memory channel layer, then PostgreSQL with
# Redis, then the browser tests in their own pytest run.
test: lint test-sqlite test-postgres test-e2e

test-sqlite: $(VENV)/.installed-dev | var
	$(PY) manage.py makemigrations --check --dry-run
	$(PY) -m pytest -m "not e2e and not postgres" -q

test-postgres: $(VENV)/.installed-dev | var
	@$(PY) tests/services.py postgres redis; rc=$$?; \
	if [ $$rc -eq 0 ]; then \
		DATABASE_URL=$(PG_TEST_URL) REDIS_URL=$(REDIS_TEST_URL) \
		$(PY) -m pytest -m "not e2e" -q tests --ignore=tests/engine; \
	else [ $$rc -eq 1 ]; fi

# The browser tests run on the embedded default, then on PostgreSQL with Redis.
test-e2e: $(VENV)/.installed-dev | var
	@$(PY) tests/services.py chromium; rc=$$?; \
	if [ $$rc -eq 0 ]; then $(PY) -m pytest -m e2e -q; else [ $$rc -eq 1 ]; fi
	@$(PY) tests/services.py chromium postgres redis; rc=$$?; \
	if [ $$rc -eq 0 ]; then \
		DATABASE_URL=$(PG_TEST_URL) REDIS_URL=$(REDIS_TEST_URL) $(PY) -m pytest -m e2e -q; \
	else [ $$rc -eq 1 ]; fi

lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# Benchmarks print figures; they assert nothing. The load benchmark needs PostgreSQL
# and Redis (as in production) and takes about ten minutes with its search for the
# most tables each process count serves within 100 ms; it ends with one line per goal
# of the live path (tests/bench/goals.py), each saying whether it holds.
bench: $(VENV)/.installed-dev | var
	$(PY) tests/bench/bench_engine.py
	$(PY) tests/bench/bench_render.py
	$(PY) tests/bench/bench_reviews.py
	rm -f var/bench-load.jsonl
	$(PY) tests/bench/bench_load.py --processes 1,2 --tables 25,100,250 --seconds 15 --scenarios echo,fanout,table,bots --record var/bench-load.jsonl
	$(PY) tests/bench/bench_load.py --processes 1,2 --search --seconds 15 --record var/bench-load.jsonl
	@$(PY) tests/bench/goals.py var/bench-load.jsonl

clean:
	rm -rf var .pytest_cache .ruff_cache
