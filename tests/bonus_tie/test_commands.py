"""`manage.py paytable_report`: the report of a version on a small shoe, and bad arguments."""

import os
import subprocess
import sys
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from bonus_tie.engine.kinds import BONUS_KINDS
from tests.bonus_tie.conftest import DEFAULT, SMALL_SHOE_ARG, Staff, propose

pytestmark = pytest.mark.django_db

SMALL = ["--shoe", SMALL_SHOE_ARG, "--workers", "0"]


class Terminal(StringIO):
    """What a terminal stderr says of itself."""

    def isatty(self) -> bool:
        return True


def run(*args: str, err: StringIO | None = None) -> tuple[str, str]:
    out, err = StringIO(), err if err is not None else StringIO()
    call_command("paytable_report", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_it_prints_the_report_of_the_version_in_force_and_no_progress_bar_when_captured() -> None:
    out, err = run(*SMALL)

    lines = out.splitlines()
    assert lines[0] == "Paytable v1 (approved)"
    assert lines[1].startswith(
        "Paytable v1: custom shoe [4, 0, 0, 0, 0, 0, 4, 4, 4, 16] (A..ten), dealer stands"
    )
    for kind in BONUS_KINDS:
        pays = DEFAULT[kind.value]
        assert any(line.startswith(f"{kind.value:<5}{pays:>5} to 1") for line in lines), kind
    assert "P(any tie)" in out
    assert "Steering check, paytable v1" in out
    assert any(line.startswith("Flagged: T17") for line in lines)  # the default pays, steered, on this shoe
    assert lines[-1].startswith("Elapsed: ")
    assert lines[-1].endswith(" s (in this process)")
    assert ", CPU " in lines[-1]
    # Every figure is exact and says which model it comes from; nothing is simulated.
    assert "std err" not in out
    assert "basic strategy, exact, re-splits to 4 hands" in out
    assert "composition-dependent play, exact, re-splits to 4 hands" in out
    assert "basic strategy, exact, one split (no re-split) (the steering model)" in out
    assert "Break-even pays under steering" in out
    assert err == ""  # no bar, no carriage returns, in a log or a test's capture


def test_on_a_terminal_a_progress_bar_counts_the_dealer_up_cards() -> None:
    _, err = run(*SMALL, err=Terminal())

    assert "computing, by dealer up card" in err
    assert "5/5" in err  # five card values in this shoe
    assert "\r" in err


def test_it_reports_a_named_version_under_the_rules_asked_for(pit_boss: Staff) -> None:
    row = propose(pit_boss)

    out, _ = run("--version", str(row.version), "--h17", "--blackjack-pays", "6:5", *SMALL)

    assert out.splitlines()[0] == f"Paytable v{row.version} (proposed)"
    assert "dealer hits soft 17 (H17), Blackjack pays 6:5" in out
    assert "T21      1 to 1" in out
    assert "Flagged: none" in out


def test_it_reports_under_late_surrender_when_asked() -> None:
    without, _ = run("--decks", "8", "--h17", *SMALL)
    out, _ = run("--decks", "8", "--h17", "--surrender", *SMALL)

    assert "late surrender" in out
    assert "no surrender" in without
    assert out.splitlines()[1:-1] != without.splitlines()[1:-1]  # the figures move with the rule


def test_two_worker_processes_print_the_same_figures() -> None:
    serial, _ = run(*SMALL)
    parallel, _ = run("--shoe", SMALL_SHOE_ARG, "--workers", "2")

    assert serial.splitlines()[:-1] == parallel.splitlines()[:-1]
    assert serial.splitlines()[-1].endswith("(in this process)")
    assert parallel.splitlines()[-1].endswith("(2 worker processes)")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--decks", "7"], "Error: argument --decks: must be 6 or 8, not '7'"),
        (["--version", "zero"], "Error: argument --version: must be a whole number, not 'zero'"),
        (["--version", "0"], "Error: argument --version: must be from 1 to 2147483647, not 0"),
        (["--blackjack-pays", "2:1"], "Error: argument --blackjack-pays: must be 3:2 or 6:5, not '2:1'"),
        (["--shoe", "1,2,3"], "Error: argument --shoe: must be ten comma-separated counts"),
        (["--shoe", "0,0,0,0,0,0,0,0,0,1"], "Error: argument --shoe: must hold at least four cards"),
        (["--workers", "-1"], "Error: argument --workers: must be from 0 to 64, not -1"),
        (["--version", "99"], "No paytable version 99."),
        (["--surrender", "yes"], "Error: unrecognized arguments: yes"),
    ],
)
def test_bad_arguments_are_a_one_line_error(args: list[str], message: str) -> None:
    with pytest.raises(CommandError) as refused:
        run(*args)

    assert str(refused.value).startswith(message)
    assert "\n" not in str(refused.value)


def test_from_the_shell_a_bad_argument_is_one_line_and_a_non_zero_exit() -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test"}

    finished = subprocess.run(  # noqa: S603 - our own interpreter and manage.py
        [sys.executable, str(settings.BASE_DIR / "manage.py"), "paytable_report", "--decks", "7"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )

    assert finished.returncode == 2
    assert finished.stdout == ""
    assert finished.stderr == "paytable_report: error: argument --decks: must be 6 or 8, not '7'\n"
