# The two commands a newcomer needs: `make run` and `make test`.
# Both make their own virtual environment in .venv and install what they need: `make run` only
# what serving needs (requirements.txt), the tests, checks and benchmarks the dev toolchain as
# well (requirements-dev.txt). Each set has its own marker file, so neither hides the other.

VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

# The first interpreter that is Python 3.12 or newer (Django 6.1 needs it).
PYTHON ?= $(shell for p in python3.14 python3.13 python3.12 python3 python; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null \
	&& { echo $$p; break; }; done)

.PHONY: run test check bench bench-smoke bench-editing bench-pages clean

$(BIN)/python:
	@if [ -z "$(PYTHON)" ]; then \
		echo "chipsite needs Python 3.12 or newer, and none was found on PATH."; \
		echo "Install one (for example 'pyenv install 3.12'), or run: make PYTHON=/path/to/python3.12 ..."; \
		exit 1; fi
	$(PYTHON) -m venv $(VENV)

# The pip that comes with Python 3.12's venv installs these wheels as they are: upgrading it
# first cost a download and a reinstall on every new environment.
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check
# uv (pinned, into the venv) installs the same pinned wheels: 5 s where pip took 48 s on a
# 2-core machine, most of pip's time compiling every module. Where uv cannot be had or fails,
# pip does the work. UV_NATIVE_TLS: uv trusts the system's certificates, as pip does.
UV_VERSION := 0.13.9
define install
	{ $(PIP) uv==$(UV_VERSION) 2>/dev/null && UV_NATIVE_TLS=1 $(BIN)/uv pip install --quiet \
		--python $(BIN)/python -r $(1); } || $(PIP) -r $(1)
endef
RUN_INSTALLED := $(VENV)/.installed-run
DEV_INSTALLED := $(VENV)/.installed-dev

$(RUN_INSTALLED): $(BIN)/python requirements.txt
	$(call install,requirements.txt)
	touch $@

$(DEV_INSTALLED): $(BIN)/python requirements.txt requirements-dev.txt
	$(call install,requirements-dev.txt)
	touch $@

## Serve the site with demo content on SQLite at http://127.0.0.1:8000/
run: $(RUN_INSTALLED)
	DEBUG=1 $(BIN)/python manage.py prepare_demo
	@echo "Serving chipsite at http://$(HOST):$(PORT)/ (admin at http://$(HOST):$(PORT)/admin/)"
	DEBUG=1 $(BIN)/python manage.py runserver $(HOST):$(PORT)

## Run the whole test suite (SQLite unless DATABASE_URL says otherwise)
test: $(DEV_INSTALLED)
	SECRET_KEY=test-only-secret-key DEBUG=1 $(BIN)/python -m pytest $(PYTEST_ARGS)

## What CI checks besides the tests (lint-imports: the layers in pyproject.toml; mypy: the
## type hints on services, selectors and documents, [tool.mypy] there)
CHECK_ENV := SECRET_KEY=check-only-secret-key-long-enough-for-the-production-rule-0123456789 \
	ALLOWED_HOSTS=chipsite.example.com
check: $(DEV_INSTALLED)
	$(CHECK_ENV) $(BIN)/python manage.py check --deploy --fail-level WARNING
	$(CHECK_ENV) $(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/python -m ruff check .
	$(BIN)/python -m ruff format --check .
	$(BIN)/lint-imports
	$(CHECK_ENV) $(BIN)/mypy
	$(BIN)/python tools/house_rules.py

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .mypy_cache

## The site under load (gunicorn, wrk, PostgreSQL, Redis) at 10, 1,000 and 10,000 vendors:
## writes docs/benchmarks.md
bench: $(DEV_INSTALLED)
	$(BIN)/python bench/load.py --sizes 10,1000,10000

## The same at the smallest size, a page a second, nothing written (CI runs it)
bench-smoke: $(DEV_INSTALLED)
	$(BIN)/python bench/load.py --smoke
	$(BIN)/python bench/editing.py --smoke

## Visitors and two editors saving at once for 150 s (some 200 intended edits); adds its section to docs/benchmarks.md
bench-editing: $(DEV_INSTALLED)
	$(BIN)/python bench/editing.py --duration 150

## Query counts and in-process time ratios at 19 and 1,009 vendors, on SQLite
bench-pages: $(DEV_INSTALLED)
	SECRET_KEY=bench-only-secret-key DEBUG=1 $(BIN)/python bench/pages.py
