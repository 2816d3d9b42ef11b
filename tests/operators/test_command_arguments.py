"""Every argument of the operators' commands is checked: a bad one is refused with one plain line
and changes nothing (no casino, pit, table, user, report or audit event appears)."""

import datetime as dt
import io
import json
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.utils import timezone

from audit.models import AuditEvent
from casino.models import Casino, Pit, Table, Terminal
from kernel.gaming_day import casino_zone, gaming_day_and_shift
from reports.models import ShiftReport
from tests.support.factories import ProvisionedTableFactory

pytestmark = pytest.mark.django_db


def everything() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (Casino, Pit, Table, User, ShiftReport, AuditEvent))


def refused(*args: str) -> str:
    """Run a command that must refuse its arguments; returns the one-line message."""
    before = everything()
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError) as refusal:
        call_command(*args, stdout=out, stderr=err)
    message = str(refusal.value)
    assert len(message.splitlines()) == 1, message
    assert (out.getvalue(), err.getvalue()) == ("", "")
    assert everything() == before
    return message


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def floor() -> None:
    """One casino with one pit, as an operator finds it after the first table."""
    ProvisionedTableFactory.create(name="BJ-01", casino_name="Main casino", pit_name="Pit 1")


# provision_table


@pytest.mark.usefixtures("floor")
@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Error: argument --name: --name must not be empty"),
        ("   ", "Error: argument --name: --name must not be empty"),
        (" BJ-02", "Error: argument --name: --name must not start or end with a space"),
        ("BJ-02\x07", "Error: argument --name: --name must hold printable characters only"),
        ("BJ\ud800", "Error: argument --name: --name must hold printable characters only"),
        ("T" * 300, "Error: argument --name: --name must be at most 47 characters, not 300"),
        ("T" * 48, "Error: argument --name: --name must be at most 47 characters, not 48"),
        ("BJ-01", "A table named 'BJ-01' already exists."),
    ],
)
def test_provision_table_refuses_a_bad_table_name(name: str, message: str) -> None:
    assert refused("provision_table", "--name", name, "--decks", "6", "--pit", "Pit 1") == message


@pytest.mark.usefixtures("floor")
def test_provision_table_takes_the_longest_name_a_terminal_can_be_named_after() -> None:
    printed = json.loads(run("provision_table", "--name", "T" * 47, "--decks", "6", "--pit", "Pit 1"))

    assert printed["table"] == "T" * 47
    assert Terminal.objects.get(table__name="T" * 47).name == "T" * 47 + "-T1"


@pytest.mark.usefixtures("floor")
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pit", "Pit 9"], "No pit 'Pit 9' in casino 'Main casino' (pits: 'Pit 1'); add --create-pit to create it."),
        (["--pit", ""], "Error: argument --pit: --pit must not be empty"),
        (["--pit", "P" * 101], "Error: argument --pit: --pit must be at most 100 characters, not 101"),
        (["--pit", "Pit 1", "--casino", "Main casin0"],
         "No casino 'Main casin0' (casinos: 'Main casino'); add --create-casino to create it."),
        (["--pit", "Pit 1", "--casino", "Main casin0", "--create-pit"],
         "No casino 'Main casin0' (casinos: 'Main casino'); add --create-casino to create it."),
        (["--pit", "Pit 1", "--casino", "New casino", "--create-casino"],
         "No pit 'Pit 1' in casino 'New casino' (pits: none); add --create-pit to create it."),
        (["--pit", "Pit 1", "--create-casino"], "--create-casino needs the new casino's name in --casino."),
        ([], "Error: the following arguments are required: --pit"),
        (["--pit", "Pit 1", "--decks", "7"], "Error: argument --decks: invalid choice: 7 (choose from 6, 8)"),
        (["--pit", "Pit 1", "--blackjack-pays", "2:1"],
         "Error: argument --blackjack-pays: Blackjack pays 3:2 or 6:5."),
        (["--pit", "Pit 1", "--aggregate-limit-cents", "0"],
         "Error: argument --aggregate-limit-cents: must be from 1 to 9223372036854775807, not 0"),
        (["--pit", "Pit 1", "--aggregate-limit-cents", "-500"],
         "Error: argument --aggregate-limit-cents: must be from 1 to 9223372036854775807, not -500"),
        (["--pit", "Pit 1", "--aggregate-limit-cents", "9223372036854775808"],
         "Error: argument --aggregate-limit-cents: must be from 1 to 9223372036854775807, not 9223372036854775808"),
        (["--pit", "Pit 1", "--aggregate-limit-cents", "5e3"],
         "Error: argument --aggregate-limit-cents: must be a whole number, not '5e3'"),
        (["--pit", "Pit 1", "--aggregate-limit-cents", "\u0661\u0660\u0660"],
         "Error: argument --aggregate-limit-cents: must be a whole number, not '\u0661\u0660\u0660'"),
    ],
)  # fmt: skip
def test_provision_table_refuses_bad_placement_and_rules(args: list[str], message: str) -> None:
    assert refused("provision_table", "--name", "BJ-02", "--decks", "6", *args) == message


def test_provision_table_asks_which_casino_when_there_are_several() -> None:
    for casino in ("North casino", "South casino"):
        ProvisionedTableFactory.create(name=f"{casino[:5]}-1", casino_name=casino, pit_name="Pit 1")

    assert refused("provision_table", "--name", "BJ-02", "--decks", "6", "--pit", "Pit 1") == (
        "Name the casino with --casino (casinos: 'North casino', 'South casino')."
    )


def test_provision_table_on_an_empty_database_says_how_to_create_the_casino() -> None:
    assert refused("provision_table", "--name", "BJ-02", "--decks", "6", "--pit", "Pit 1") == (
        "There is no casino yet: name one with --casino and add --create-casino."
    )


@pytest.mark.usefixtures("floor")
def test_provision_table_creates_a_pit_only_when_asked() -> None:
    run("provision_table", "--name", "BJ-02", "--decks", "8", "--pit", "Pit 2", "--create-pit")
    run("provision_table", "--name", "BJ-03", "--decks", "8", "--pit", "Pit 2")

    assert sorted(Table.objects.filter(pit__name="Pit 2").values_list("name", flat=True)) == [
        "BJ-02",
        "BJ-03",
    ]
    assert list(Casino.objects.values_list("name", flat=True)) == ["Main casino"]


def test_provision_table_creates_a_casino_and_its_first_pit_when_asked() -> None:
    run("provision_table", "--name", "BJ-02", "--decks", "6", "--casino", "Lakeside", "--create-casino",
        "--pit", "High limit", "--create-pit")  # fmt: skip

    assert Table.objects.get(name="BJ-02").pit.casino.name == "Lakeside"
    assert list(Pit.objects.values_list("casino__name", "name")) == [("Lakeside", "High limit")]


# create_staff


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--username", ""], "Error: argument --username: This field cannot be blank."),
        (["--username", "bad name!"], "Error: argument --username: Enter a valid username. This value may "
                                      "contain only letters, numbers, and @/./+/-/_ characters."),
        (["--username", "u" * 151],
         "Error: argument --username: Ensure this value has at most 150 characters (it has 151)."),
        (["--username", "dana", "--role", "boss"], "Error: argument --role: invalid choice: 'boss' "
                                                   "(choose from 'floor_supervisor', 'pit_boss', 'compliance', 'cage_cashier', 'count_team', 'admin', 'tournament_director')"),
        (["--role", "pit_boss"], "Error: the following arguments are required: --username"),
    ],
)  # fmt: skip
def test_create_staff_refuses_a_bad_username_or_role(args: list[str], message: str) -> None:
    arguments = args if "--role" in args else [*args, "--role", "pit_boss"]
    assert refused("create_staff", *arguments) == message


@pytest.mark.usefixtures("floor")
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--role", "pit_boss", "--pit", "Pit 9"], "No pit named 'Pit 9' (pits: 'Pit 1')."),
        (["--role", "floor_supervisor", "--pit", "Pit 1", "--pit", "Pit 2"], "No pit named 'Pit 2' (pits: 'Pit 1')."),
        (["--role", "compliance", "--pit", "Pit 1"],
         "Only floor supervisors and pit bosses run pits; the compliance role sees every pit."),
        (["--role", "pit_boss", "--pit", " Pit 1"], "Error: argument --pit: --pit must not start or end with a space"),
    ],
)  # fmt: skip
def test_create_staff_refuses_a_pit_that_does_not_exist_or_a_role_without_pits(
    args: list[str], message: str
) -> None:
    assert refused("create_staff", "--username", "dana", *args) == message


@pytest.mark.usefixtures("floor")
def test_create_staff_refuses_a_pit_name_two_casinos_share() -> None:
    ProvisionedTableFactory.create(name="BJ-90", casino_name="Lakeside", pit_name="Pit 1")

    assert refused("create_staff", "--username", "dana", "--role", "pit_boss", "--pit", "Pit 1") == (
        "More than one casino has a pit named 'Pit 1': assign it in the admin site (staff profiles)."
    )


def test_create_staff_refuses_a_username_taken() -> None:
    run("create_staff", "--username", "dana", "--role", "pit_boss")

    assert refused("create_staff", "--username", "dana", "--role", "compliance") == (
        "A user named 'dana' already exists."
    )


# shift_report


@pytest.fixture
def recording_since_a_week_ago() -> dt.datetime:
    """A table provisioned (and audited) a week ago: the audit trail begins then."""
    week_ago = timezone.now() - dt.timedelta(days=7)
    ProvisionedTableFactory.create(name="BJ-01", now=week_ago)
    return week_ago


@pytest.mark.usefixtures("recording_since_a_week_ago")
def test_shift_report_marks_the_shift_still_running_provisional() -> None:
    day, shift = gaming_day_and_shift(timezone.now())

    out = io.StringIO()
    call_command("shift_report", "--gaming-day", day.isoformat(), "--shift", shift, stdout=out)

    assert " PROVISIONAL: the shift is still running (it ends " in out.getvalue()
    assert ShiftReport.objects.filter(gaming_day=day, shift=shift, provisional=True).exists()


@pytest.mark.usefixtures("recording_since_a_week_ago")
def test_shift_report_refuses_a_future_shift() -> None:
    assert refused("shift_report", "--gaming-day", "2030-01-01", "--shift", "grave") == (
        "The grave shift of 2030-01-01 is in the future (it begins 2030-01-01 22:00 America/Los_Angeles); "
        "there is nothing to report yet."
    )


@pytest.mark.usefixtures("recording_since_a_week_ago")
@pytest.mark.parametrize(
    ("day", "message"),
    [
        ("1999-12-31", "--gaming-day 1999-12-31 is out of range (2000-01-01 to 2099-12-31)."),
        ("9999-12-31", "--gaming-day 9999-12-31 is out of range (2000-01-01 to 2099-12-31)."),
        ("0001-01-01", "--gaming-day 0001-01-01 is out of range (2000-01-01 to 2099-12-31)."),
    ],
)
def test_shift_report_refuses_an_absurd_date(day: str, message: str) -> None:
    assert refused("shift_report", "--gaming-day", day, "--shift", "day") == message


def test_shift_report_refuses_a_shift_that_ended_before_anything_was_recorded(
    recording_since_a_week_ago: dt.datetime,
) -> None:
    begins = recording_since_a_week_ago.astimezone(casino_zone())

    assert refused("shift_report", "--gaming-day", "2001-01-01", "--shift", "day") == (
        "The day shift of 2001-01-01 ended before anything was recorded "
        f"(the audit trail begins {begins:%Y-%m-%d %H:%M} America/Los_Angeles); there is nothing to report."
    )


def test_shift_report_on_an_empty_audit_trail_has_nothing_to_report() -> None:
    assert refused("shift_report", "--gaming-day", "2026-11-20", "--shift", "day") == (
        "The day shift of 2026-11-20 ended before anything was recorded (the audit trail is empty); "
        "there is nothing to report."
    )


def test_shift_report_reports_a_finished_shift_after_the_trail_began(
    recording_since_a_week_ago: dt.datetime,
) -> None:
    day, shift = gaming_day_and_shift(recording_since_a_week_ago + dt.timedelta(days=1))

    printed = run("shift_report", "--gaming-day", day.isoformat(), "--shift", shift)

    assert printed == f"1 shift report(s) for {day.isoformat()} {shift}; win $0.00.\n"
    assert ShiftReport.objects.get().gaming_day == day


@pytest.mark.usefixtures("recording_since_a_week_ago")
@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("²", "--table '²' is not a table id."),
        ("-1", "--table '-1' is not a table id."),
        ("99999999999999999999", "--table '99999999999999999999' is not a table id."),
        ("424242", "No table 424242."),
    ],
)
def test_shift_report_refuses_a_bad_table(table: str, message: str) -> None:
    assert (
        refused("shift_report", "--gaming-day", "2026-11-20", "--shift", "day", "--table", table) == message
    )


def test_shift_report_refuses_an_unknown_option_as_one_line() -> None:
    assert refused("shift_report", "--gaming-day", "2026-11-20", "--shift", "day", "--bogus") == (
        "Error: unrecognized arguments: --bogus"
    )


# the audit commands


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["audit_export", "--gaming-day", "9999-12-31"],
         "--gaming-day must be from 2000-01-01 to 2099-12-31, not 9999-12-31"),
        (["audit_export", "--gaming-day", "1999-12-31"],
         "--gaming-day must be from 2000-01-01 to 2099-12-31, not 1999-12-31"),
        (["audit_verify", "--chunk-size", "0"], "--chunk-size must be from 1 to 1000000, not 0"),
        (["audit_verify", "--chunk-size", str(10**30)], f"--chunk-size must be from 1 to 1000000, not {10**30}"),
        (["audit_grants", "casino app"], "role and schema must be plain lowercase SQL identifiers"),
        (["audit_grants", "casino_app", "--schema", "public;"],
         "role and schema must be plain lowercase SQL identifiers"),
    ],
)  # fmt: skip
def test_the_audit_commands_refuse_bad_arguments(args: list[str], message: str) -> None:
    assert refused(*args) == message


# paytable_report


@pytest.mark.parametrize(
    ("shoe", "message"),
    [
        ("33,32,32,32,32,32,32,32,32,128",
         "Error: argument --shoe: must hold at most what 8 decks do: 32 of each rank and 128 ten-value cards"),
        ("1,1,1,1,1,1,1,1,1,129",
         "Error: argument --shoe: must hold at most what 8 decks do: 32 of each rank and 128 ten-value cards"),
        ("²,1,1,1,1,1,1,1,1,1",
         "Error: argument --shoe: must be ten comma-separated counts, Aces first and ten-value cards last"),
    ],
)  # fmt: skip
def test_paytable_report_refuses_an_impossible_shoe(shoe: str, message: str) -> None:
    assert refused("paytable_report", "--shoe", shoe) == message


# run_service and seed_demo: refused before anything starts


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bind", "8000"], "Error: argument --bind: must be HOST:PORT, e.g. 127.0.0.1:8000, not '8000'"),
        (["--bind", "127.0.0.1:0"], "Error: argument --bind: must be HOST:PORT, e.g. 127.0.0.1:8000, not '127.0.0.1:0'"),
        (["--bind", "127.0.0.1:99999"],
         "Error: argument --bind: must be HOST:PORT, e.g. 127.0.0.1:8000, not '127.0.0.1:99999'"),
        (["--web-workers", "0"], "Error: argument --web-workers: must be from 1 to 64, not 0"),
        (["--web-threads", "many"], "Error: argument --web-threads: must be a whole number, not 'many'"),
    ],
)  # fmt: skip
def test_run_service_refuses_bad_arguments_before_starting_anything(args: list[str], message: str) -> None:
    assert refused("run_service", *args) == message


def test_seed_demo_refuses_a_directory_for_its_credentials(tmp_path: Path) -> None:
    assert (
        refused("seed_demo", "--credentials-file", str(tmp_path))
        == f"--credentials-file {tmp_path} is a directory."
    )


def test_seed_demo_writes_its_credentials_where_asked(tmp_path: Path) -> None:
    target = tmp_path / "demo.json"

    run("seed_demo", "--credentials-file", str(target))

    assert [t["table"] for t in json.loads(target.read_text())["tables"]] == ["BJ-01", "BJ-02", "SP-01"]
    assert oct(target.stat().st_mode & 0o777) == "0o600"
