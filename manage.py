#!/usr/bin/env python3
"""The operators' command line: `python manage.py <command>` (see README, "Operator commands").

Runs under the project's own Python (`.venv`, which `make run` and `make manage` install)
whichever Python started it, and turns a settings error, an unreachable database or one that
has no tables yet into one plain line.
"""

import os
import sys
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent
PROJECT_VENV = PROJECT_DIR / ".venv"
HELP_FLAGS = {"-h", "--help"}


def run_under_project_python() -> None:
    """Started by another interpreter (the system Python has no Django): run again under the
    project's. A deployment without `.venv` keeps the interpreter it was started with."""
    venv_python = PROJECT_VENV / "bin" / "python"
    if venv_python.exists() and Path(sys.prefix).resolve() != PROJECT_VENV.resolve():
        os.execv(venv_python, [str(venv_python), *sys.argv])  # noqa: S606 - the project's own interpreter


def only_asks_for_help(argv: list[str]) -> bool:
    """`manage.py`, `manage.py help ...` or a `-h`/`--help` among the options: nothing runs."""
    options = argv[1 : argv.index("--")] if "--" in argv else argv[1:]
    return not options or options[0] == "help" or bool(HELP_FLAGS.intersection(options))


def main() -> None:
    run_under_project_python()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if only_asks_for_help(sys.argv) and not os.environ.get("DJANGO_SECRET_KEY"):
        # Help reads no secret, but the settings refuse to load without one.
        import secrets

        os.environ["DJANGO_SECRET_KEY"] = secrets.token_urlsafe(50)
    try:
        from django.core.exceptions import ImproperlyConfigured
        from django.core.management import execute_from_command_line
    except ImportError:
        sys.stderr.write(f"manage.py: Django is not installed for {sys.executable}; run `make sync` first.\n")
        sys.exit(1)
    import psycopg
    from django.db import OperationalError, ProgrammingError

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as exc:
        sys.stderr.write(f"manage.py: {exc}\n")
        sys.exit(1)
    except ProgrammingError as exc:
        if not isinstance(exc.__cause__, psycopg.errors.UndefinedTable):
            raise
        sys.stderr.write(
            "manage.py: the database has no tables yet: run `make run` once, or `python manage.py migrate`.\n"
        )
        sys.exit(1)
    except OperationalError as exc:
        # A failed connection is psycopg's plain OperationalError; its subclasses (a lock not
        # available, a query cancelled) are errors of a command that did reach the database.
        if type(exc.__cause__) is not psycopg.OperationalError:
            raise
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        sys.stderr.write(f"manage.py: cannot reach the database: {first_line}\n")
        sys.exit(1)


if __name__ == "__main__":
    main()
