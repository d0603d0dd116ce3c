# TrickTable developer tasks. `make run` for the embedded default (SQLite, no Redis);
# `bash .ci/run` for the full suite with PostgreSQL, Redis and a Celery worker.
SHELL := /bin/bash
PYTHON ?= $(shell for p in /root/.pyenv/versions/3.12.1/bin/python python3.12 python3; do \
	command -v $$p >/dev/null 2>&1 && { command -v $$p; break; }; done)
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
# Playwright drives Debian's /usr/bin/chromium: never download a browser.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

.PHONY: venv openspiel messages migrate run test lint worker clean

venv: $(VENV)/.installed

$(VENV)/.installed: requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --disable-pip-version-check -q -r requirements-dev.txt
	touch $@

# Optional OpenSpiel extra for the differential tests (installed without its declared deps).
openspiel: venv
	$(PIP) install --disable-pip-version-check -q --no-deps -r requirements-openspiel.txt

# Compile translations when gettext is installed; the compiled .mo is committed, so a machine
# without gettext still serves Japanese.
messages:
	@if command -v msgfmt >/dev/null 2>&1; then \
		for po in locale/*/LC_MESSAGES/*.po; do msgfmt --check -o "$${po%.po}.mo" "$$po"; done; \
	else echo "msgfmt not found (apt-get install -y gettext): using the committed .mo files"; fi

migrate: venv
	$(PY) manage.py migrate --noinput

run: messages migrate
	$(PY) manage.py runserver 0.0.0.0:8000

test: venv messages
	$(VENV)/bin/pytest

lint: venv
	$(VENV)/bin/ruff check .

worker: venv
	$(VENV)/bin/celery -A config worker -l info

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis staticfiles
