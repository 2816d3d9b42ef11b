"""`manage.py` from a shell: under any Python 3 it runs under the project's own; `--help` needs no
secret; a missing secret or a bad argument is one plain line and a non-zero exit, no traceback."""

import os
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

MANAGE_PY = str(Path(settings.BASE_DIR) / "manage.py")
SYSTEM_PYTHON = "/usr/bin/python3"
COMMANDS = [
    "provision_table", "create_staff", "check_ledger", "shift_report", "paytable_report", "audit_verify",
    "audit_export", "audit_grants", "seed_demo", "run_service", "unlock_staff", "rescore_game",
]  # fmt: skip
SETTINGS_VARIABLES = (
    "DJANGO_SECRET_KEY",
    "DJANGO_DEMO",
    "DJANGO_DEBUG",
    "DJANGO_SETTINGS_MODULE",
    "DATABASE_URL",
)


def no_settings() -> dict[str, str]:
    """The environment of an operator's shell that sets nothing for the project."""
    return {
        k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES and not k.startswith("VIRTUAL_ENV")
    }


def shell(*argv: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - our own manage.py
        [SYSTEM_PYTHON, MANAGE_PY, *argv],
        cwd="/",
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_system_python_has_no_django_of_its_own() -> None:
    """What makes the tests below mean something: started by this interpreter, manage.py must move."""
    done = subprocess.run(  # noqa: S603
        [SYSTEM_PYTHON, "-c", "import django"], capture_output=True, text=True, timeout=60, check=False
    )

    assert done.returncode != 0
    assert "No module named 'django'" in done.stderr


def test_help_lists_the_operators_commands_without_a_secret() -> None:
    done = shell("--help", env=no_settings())

    assert done.returncode == 0, done.stderr
    assert all(f"    {command}\n" in done.stdout for command in COMMANDS), done.stdout
    assert "settings are not properly configured" not in done.stdout + done.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_each_commands_help_needs_no_secret(command: str) -> None:
    done = shell(command, "--help", env=no_settings())

    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: manage.py {command} ")
    assert done.stderr == ""


def test_help_by_the_help_command_needs_no_secret() -> None:
    done = shell("help", "shift_report", env=no_settings())

    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: manage.py shift_report ")


@pytest.mark.parametrize(
    "argv", [["check_ledger"], ["shift_report", "--gaming-day", "2026-11-20", "--shift", "day"]]
)
def test_a_missing_secret_is_one_line_naming_it(argv: list[str]) -> None:
    done = shell(*argv, env=no_settings())

    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == (
        "manage.py: DJANGO_SECRET_KEY is not set. Set it, or set DJANGO_DEBUG=1 for a development run.\n"
    )


def test_arguments_after_a_double_dash_are_not_taken_for_help() -> None:
    done = shell("audit_grants", "--", "--help", env=no_settings())

    assert done.returncode == 1
    assert "DJANGO_SECRET_KEY is not set" in done.stderr


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["provision_table", "--name", "", "--decks", "6", "--pit", "Pit 1"],
         "provision_table: error: argument --name: --name must not be empty\n"),
        (["provision_table", "--name", "BJ-\udcff", "--decks", "6", "--pit", "Pit 1"],
         "provision_table: error: argument --name: --name must hold printable characters only\n"),
        (["create_staff", "--username", "bad name!", "--role", "pit_boss"],
         "create_staff: error: argument --username: Enter a valid username. This value may contain only "
         "letters, numbers, and @/./+/-/_ characters.\n"),
        (["run_service", "--web-workers", "0"], "run_service: error: argument --web-workers: must be from 1 to 64, not 0\n"),
        (["seed_demo", "--bogus"], "seed_demo: error: unrecognized arguments: --bogus\n"),
    ],
)  # fmt: skip
def test_a_bad_argument_from_the_shell_is_one_line_and_exit_status_2(argv: list[str], message: str) -> None:
    done = shell(*argv, env={**no_settings(), "DJANGO_SECRET_KEY": "an-operators-secret"})

    assert (done.returncode, done.stdout, done.stderr) == (2, "", message)


@pytest.fixture
def empty_database() -> Iterator[str]:
    """A database on the test server with no tables: an operator who has not run `make run` yet."""
    import psycopg
    from django.db import connection

    params = connection.get_connection_params()
    server = {key: params[key] for key in ("host", "port", "user") if params.get(key)}
    name = f"empty_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    query = "&".join(f"{key}={value}" for key, value in server.items() if key != "user")
    try:
        yield f"postgres://{server.get('user', 'postgres')}@/{name}?{query}"
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_a_database_without_tables_is_one_line_naming_the_fix(empty_database: str) -> None:
    env = {**no_settings(), "DJANGO_DEBUG": "1", "DATABASE_URL": empty_database}
    done = shell("paytable_report", "--decks", "6", env=env)

    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "manage.py: the database has no tables yet: run `make run` once, or `python manage.py migrate`."
    ], done.stderr


def test_an_unreachable_database_is_one_line() -> None:
    env = {**no_settings(), "DJANGO_DEBUG": "1", "DATABASE_URL": "postgres://postgres@127.0.0.1:1/nowhere"}
    done = shell("check_ledger", env=env)

    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("manage.py: cannot reach the database: "), done.stderr
