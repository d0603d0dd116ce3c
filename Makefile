# TrickTable developer tasks. `make run` for the embedded default (SQLite, no Redis);
# `bash .ci/run` for the full suite with PostgreSQL, Redis and a Celery worker.
SHELL := /bin/bash
# The first Python >= 3.12 found: python3.12, python3.13, pyenv's, then python3.
PYTHON ?= $(shell for p in python3.12 python3.13 \
	$$(ls -d $$HOME/.pyenv/versions/3.1[23]*/bin/python3 2>/dev/null | sort -V) python3; do \
	$$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1 \
	&& { command -v $$p; break; }; done)
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
# Playwright drives Debian's /usr/bin/chromium: never download a browser.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

.PHONY: venv openspiel accel accel-status accel-clean messages migrate demo run serve restore director-password test test-all screenshots test-js lint typecheck worker bench site clean

venv: $(VENV)/.installed

$(VENV)/.installed: requirements.txt requirements-dev.txt
	@test -x $(PY) || test -n "$(PYTHON)" || { echo "TrickTable needs Python 3.12 or 3.13, \
	and neither python3.12 nor python3.13 was found: install one (apt-get install python3.12, \
	or pyenv install 3.12) and run make again." >&2; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --disable-pip-version-check -q -r requirements-dev.txt
	touch $@

# Optional OpenSpiel extra for the differential tests (installed without its declared deps).
openspiel: venv
	$(PIP) install --disable-pip-version-check -q --no-deps -r requirements-openspiel.txt

# Optional compiled rules engine (games/accel.py): the Spades engine's modules compiled with mypyc
# into .accel/, used by every process while the sources are the ones it was built from. The
# pure-Python engine stays the reference (TRICKTABLE_ACCEL=off runs it where a build exists).
# (The file is run as a script: it imports nothing of the package, so a damaged build cannot stop
# its own rebuild or removal.)
ACCEL := $(PY) games/accel.py
accel: venv
	$(PIP) install --disable-pip-version-check -q -r requirements-accel.txt
	$(ACCEL) build

accel-status: venv
	@$(ACCEL) status

accel-clean: venv
	$(ACCEL) clean

# Compile translations when gettext is installed; the compiled .mo is committed, so a machine
# without gettext still serves Japanese.
messages:
	@if command -v msgfmt >/dev/null 2>&1; then \
		for po in locale/*/LC_MESSAGES/*.po; do msgfmt --check -o "$${po%.po}.mo" "$$po"; done; \
	else echo "msgfmt not found (apt-get install -y gettext): using the committed .mo files"; fi

migrate: venv
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py demo

# The port of `make run` and `make serve` (PORT=8001 make run, or make run PORT=8001).
PORT ?= 8000

# The embedded default: SQLite, tasks in-process; loads the demo club tournaments on first run.
run: messages migrate
	$(PY) manage.py demo --if-empty
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

# The evening server for a real club evening: production mode on every interface (phones on the
# club's Wi-Fi), uvicorn, the club's own database and secret key in club/ (see README).
serve: venv messages
	TRICKTABLE_SERVER=evening PORT=$(PORT) $(PY) manage.py serve

# After the laptop died: every tournament back from its newest backup into the club's database
# (club/backups/ by default; FROM=path/to/backups for another folder, file or tournament).
restore: venv
	TRICKTABLE_SERVER=evening $(PY) manage.py restore_backup --migrate $(FROM)

# A new random password for the evening server's director account, shown once.
director-password: venv
	TRICKTABLE_SERVER=evening $(PY) manage.py director_password

# In parallel: pytest-xdist, one worker per core (JOBS=1 for one process), each with its own
# test database and cache prefix. `--dist worksteal` (pytest-xdist's documented option) starts
# each worker on a contiguous share of the collection, long tests first (tests/conftest.py), so
# a module's Chromium or server is mostly started once, and a worker that runs out takes tests
# from the back of another's queue. It hands out tests by position, as `--dist load` does: the
# file-wise modes key tests by node id, and schemathesis gives every operation of a test the
# same one, so they would silently run only the first.
# Bytecode is cached (__pycache__/, git-ignored) even where the environment sets
# PYTHONDONTWRITEBYTECODE, as Python does by default: without the cache each worker compiles and
# assertion-rewrites the ~600 test modules again on every run (collection 16 s of CPU a worker
# against 8 s), and every server or command a test starts compiles the project again.
#
# `make test` is the suite a developer runs before every commit: everything but the long stories
# (the `long` marker, tests/conftest.py: the browser stories, the evening server, real servers and
# whole demo evenings, seconds to a minute each). `make test-all` runs everything, as CI does.
test: export PYTHONDONTWRITEBYTECODE :=
test: venv messages test-js
	$(VENV)/bin/pytest -n $(or $(JOBS),auto) --dist worksteal -m "not long"

test-all: export PYTHONDONTWRITEBYTECODE :=
test-all: venv messages test-js
	$(VENV)/bin/pytest -n $(or $(JOBS),auto) --dist worksteal

# The browser tests with their screenshots saved to test-artifacts/screenshots/ (phone, laptop and
# projector sizes, English and Japanese), to look at; CI saves them too, a local `make test` not.
screenshots: venv messages
	TRICKTABLE_SCREENSHOTS=1 $(VENV)/bin/pytest -n $(or $(JOBS),auto) --dist worksteal -m browser

# The scoring page's JavaScript modules (static/js/scoring/), with Node's own test runner: no
# npm packages, no build step. Without node they are skipped with a note, except in CI (CI=true),
# where they must run (.ci/run installs Debian's nodejs).
test-js:
	@if command -v node >/dev/null 2>&1; then node --test --test-reporter=spec tests/js/*.test.mjs; \
	elif [ "$${CI:-}" = true ]; then echo "node not found: CI must run tests/js/" >&2; exit 1; \
	else echo "node not found: skipping the JavaScript tests in tests/js/ (apt-get install nodejs)"; fi

# ruff (lint and format), then import-linter's contracts ([tool.importlinter] in pyproject.toml): the layering
# api -> tournaments -> games, Django-free engines, and no import cycles where issue 19 removed them.
lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache

typecheck: venv
	$(VENV)/bin/mypy

worker: venv
	$(VENV)/bin/celery -A config worker -l info

# Every benchmark, one table of figures against the quality bars (docs/benchmarks.md);
# QUICK=1 for smoke sizes. Needs PostgreSQL and Redis running locally, and wrk for the API.
bench: venv accel
	$(PY) bench/all.py $(if $(QUICK),--quick)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis staticfiles .accel

# The club's site as a real deployment on this machine, in the foreground (docs/deployment.md):
# nginx with HTTPS (a local certificate authority in .site/tls/) in front of two uvicorn
# processes, a Celery worker and Celery beat (deploy/Procfile, run by honcho). Needs PostgreSQL
# (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/tricktable_site, created if missing),
# Redis (REDIS_URL, default db 0) and nginx. SITE_PORT: the HTTPS port (8440; uvicorn on the
# next two); SITE_ADDRESS: one more address to listen on (the LAN's).
site: venv messages
	$(PY) deploy/stack.py $(if $(SITE_PORT),--port $(SITE_PORT)) $(if $(SITE_ADDRESS),--address $(SITE_ADDRESS))
