"""The operator command lines of README.md, run exactly as written (through a shell and `make`),
against the test database: each works, and the README names no other."""

import datetime as dt
import os
import re
import subprocess
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from casino.models import StaffProfile, Table
from kernel.gaming_day import casino_zone
from tests.support.factories import ProvisionedTableFactory, restore_migrated_rows

README = Path(settings.BASE_DIR) / "README.md"
MAKE_MANAGE = re.compile(r'make manage ARGS="([^"]*)"')
# What each command line of the README must print (stdout, make's own echo included).
EXPECTED_OUTPUT = {
    "provision_table --pit 'Pit 1' --name BJ-03 --decks 6": '{"table": "BJ-03", "game": "tie_bonus_blackjack", ',
    "provision_table --pit 'Pit 1' --name SP-02 --decks 6 --game specials": '{"table": "SP-02", "game": "special_points", ',
    "create_staff --username dana --role floor_supervisor --pit 'Pit 1'": '{"username": "dana", "password": ',
    "check_ledger": "Ledger OK: ",
    "shift_report --gaming-day 2026-11-20 --shift day": " shift report(s) for 2026-11-20 day; win $0.00.",
    "audit_verify": "audit chains intact: ",
    "audit_export --gaming-day 2026-11-20 --format csv": ",casino.table.provisioned,",
    "paytable_report --decks 8 --h17": "Paytable v1 (approved)",
    "provision_table --help": "usage: manage.py provision_table ",
}


def readme_block() -> list[str]:
    """The command lines of the README's "Operator commands" block, in order."""
    section = README.read_text().split("## Operator commands", 1)[1].split("\n## ", 1)[0]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    return block.strip().splitlines()


def test_the_readme_names_only_command_lines_that_are_tested() -> None:
    text = " ".join(README.read_text().split())  # inline mentions may wrap
    mentioned = {args for args in MAKE_MANAGE.findall(text) if "<" not in args and args != "..."}

    assert [f'make manage ARGS="{args}"' for args in EXPECTED_OUTPUT] == readme_block()
    assert mentioned <= set(EXPECTED_OUTPUT)


def database_url() -> str:
    """This test's database, as `DATABASE_URL` (a Unix socket directory goes in the query)."""
    params = connection.get_connection_params()
    query = urlencode({"host": params.get("host", ""), "port": params.get("port", "")})
    password = f":{params['password']}" if params.get("password") else ""
    return f"postgres://{params.get('user', '')}{password}@/{params['dbname']}?{query}"


@pytest.fixture
def demo_floor(transactional_db: None) -> None:
    """What the demo holds that the README's lines use, committed so that another process sees it:
    the pit 'Pit 1' and a table provisioned (and audited) during gaming day 2026-11-20."""
    restore_migrated_rows()
    ProvisionedTableFactory.create(
        name="BJ-01",
        casino_name="Demo casino",
        pit_name="Pit 1",
        now=dt.datetime(2026, 11, 20, 8, 0, tzinfo=casino_zone()),
    )
    assert timezone.now() > dt.datetime(2026, 11, 20, 14, 0, tzinfo=casino_zone())  # the day shift is over


@pytest.mark.usefixtures("demo_floor")
def test_every_readme_command_line_works_as_written(tmp_path: Path) -> None:
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "DJANGO_SECRET_KEY")},
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_DIR": str(tmp_path / "broker"),
    }
    for line in readme_block():
        args = MAKE_MANAGE.fullmatch(line)
        assert args is not None, line

        done = subprocess.run(  # noqa: S602 - the README's line, through a shell as an operator types it
            line,
            shell=True,
            cwd=settings.BASE_DIR,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )

        assert done.returncode == 0, f"{line}\n{done.stdout}\n{done.stderr}"
        assert EXPECTED_OUTPUT[args.group(1)] in done.stdout, f"{line}\n{done.stdout}"
        assert "Traceback" not in done.stderr, f"{line}\n{done.stderr}"
    assert Table.objects.get(name="BJ-03").pit.name == "Pit 1"
    assert StaffProfile.objects.get(user__username="dana").role == "floor_supervisor"


@pytest.mark.usefixtures("demo_floor")
def test_python_manage_py_with_the_system_python_and_production_settings() -> None:
    """The README's other way: any Python 3, with the settings in the environment."""
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "DJANGO_DEMO")},
        "DJANGO_SECRET_KEY": "a-production-secret",
        "DATABASE_URL": database_url(),
    }
    done = subprocess.run(
        ["/usr/bin/python3", "manage.py", "check_ledger"],
        cwd=settings.BASE_DIR, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip

    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("Ledger OK: ")
