# The two commands of the README: `make run` and `make test`. Each needs only
# Python 3.11 on the machine: uv comes into .tools/, the locked dependencies
# into .venv/, and PostgreSQL from a wheel when DATABASE_URL is not set.
PYTHON ?= python3
UV_VERSION := 0.13.9
UV := .tools/bin/uv
RUN := $(UV) run --locked --no-sync

.PHONY: run test test-fast sync browser lint typecheck migrations-check pytest bench manage

$(UV):
	$(PYTHON) -m venv .tools
	.tools/bin/python -m pip install --quiet --disable-pip-version-check "uv==$(UV_VERSION)"

sync: $(UV)
	$(UV) sync --locked --quiet

# exec, and the project's Python itself: a signal for the service reaches run_service, with no
# shell or uv process in between.
run: sync
	DJANGO_DEMO=$${DJANGO_DEMO:-1} exec .venv/bin/python manage.py run_service

# An operator command with the environment `make run` uses (the demo database unless
# DATABASE_URL is set): make manage ARGS="shift_report --gaming-day 2026-11-20 --shift day"
manage: sync
	DJANGO_DEMO=$${DJANGO_DEMO:-1} $(RUN) python manage.py $(ARGS)

test: sync browser lint typecheck migrations-check pytest

# The admin site is tested in a real headless Chromium (Debian's packages).
browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || { \
		echo "Installing Chromium for the admin browser tests (needs root or sudo)"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q chromium chromium-driver; }

lint:
	$(RUN) ruff check .
	$(RUN) ruff format --check .
	$(RUN) lint-imports

typecheck:
	DJANGO_SETTINGS_MODULE=config.settings_test $(RUN) mypy .

migrations-check:
	DJANGO_SETTINGS_MODULE=config.settings_test $(RUN) python manage.py makemigrations --check --dry-run

# One test process per core (pytest-xdist), up to four: each has its own test database, live
# server and Chromium. `worksteal` hands the long tests (services started and stopped, whole
# games against a model) to whichever process is free.
PARALLEL := --numprocesses=auto --maxprocesses=4 --dist=worksteal

pytest:
	$(RUN) pytest $(PARALLEL)

# The quick loop while working: lint, then every test but the browser tests and the slow ones
# (marked in tests/support/plugin.py). `make test` still runs everything.
test-fast: sync lint
	$(RUN) pytest $(PARALLEL) -m "not browser and not slow"

bench: sync
	$(RUN) python bench/engine.py
