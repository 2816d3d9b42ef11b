"""The commands as an operator runs them: one plain line on error, exit status, no traceback."""

import io

import pytest
from django.core.management import ManagementUtility, call_command
from django.core.management.base import CommandError
from django.db import connection, transaction

from audit.chain import anchor_digest


def _run_from_command_line(capsys, *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        ManagementUtility(["manage.py", *argv]).execute()
    captured = capsys.readouterr()
    return int(exit_info.value.code or 0), captured.out, captured.err


@pytest.mark.parametrize(
    ("argv", "status", "message"),
    [
        (["audit_export"], 2, "audit_export: error: the following arguments are required: --gaming-day\n"),
        (
            ["audit_export", "--gaming-day", "tomorrow"],
            1,
            "CommandError: --gaming-day must be a date like 2026-11-20",
        ),
        (
            ["audit_export", "--gaming-day", "2026-11-20", "--bogus"],
            2,
            "audit_export: error: unrecognized arguments: --bogus\n",
        ),
        (
            ["audit_verify", "--chunk-size", "many"],
            2,
            "audit_verify: error: argument --chunk-size: invalid int value",
        ),
    ],
)
def test_argument_errors_are_one_line_without_traceback(capsys, argv, status, message) -> None:
    code, out, err = _run_from_command_line(capsys, *argv, "--skip-checks")

    assert code == status
    assert err.startswith(message)
    assert err.count("\n") == 1
    assert "Traceback" not in err
    assert out == ""


@pytest.mark.django_db
def test_audit_verify_prints_count_and_head(chain) -> None:
    casino, table = chain(3), chain(2, table_id=4)
    out = io.StringIO()

    call_command("audit_verify", stdout=out)

    digest = anchor_digest([("casino", 3, casino[-1].hash), ("table:4", 2, table[-1].hash)])
    assert f"audit chains intact: 5 events in 2 chains, head of all chains {digest}" in out.getvalue()
    assert "all events walked, 0 anchors matched" in out.getvalue()


@pytest.mark.django_db
def test_audit_verify_reports_the_break_and_exits_1(chain) -> None:
    chain(2)
    events = chain(3, table_id=4)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute("DELETE FROM audit_auditevent WHERE chain = 'table:4' AND seq = 2")

    err = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("audit_verify", stdout=io.StringIO(), stderr=err)

    assert caught.value.returncode == 1
    message = str(caught.value)
    assert message.startswith("audit chain table:4 BROKEN at event #2: sequence_gap:")
    assert f"next event found is #3 (id {events[2].pk})" in message
    assert message.endswith("1 events of it verified before the break; 1 of 2 chains broken")


@pytest.mark.django_db
def test_audit_verify_json_and_small_chunks(chain) -> None:
    chain(5)
    chain(4, table_id=1)
    out = io.StringIO()

    call_command("audit_verify", "--json", "--chunk-size", "2", stdout=out)

    assert out.getvalue().startswith('{"ok": true, "events": 9, "head": ')


@pytest.mark.django_db
def test_audit_grants_prints_the_sql() -> None:
    out = io.StringIO()
    call_command("audit_grants", "casino_app", stdout=out)

    sql = out.getvalue()
    assert "REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON public.audit_auditanchor" in sql
    for table in ("audit_auditcheckpoint", "audit_auditevent", "audit_tablehistory"):
        assert f"public.{table}" in sql
    with pytest.raises(CommandError):
        call_command("audit_grants", "casino_app; DROP TABLE x", stdout=io.StringIO())


@pytest.mark.django_db
def test_audit_verify_since_checkpoint(chain) -> None:
    chain(2)
    call_command("audit_verify", stdout=io.StringIO())  # no checkpoint yet: walks everything
    from audit.services import record_checkpoint

    record_checkpoint()
    events = chain(3)
    out = io.StringIO()

    call_command("audit_verify", "--since-checkpoint", stdout=out)

    digest = anchor_digest([("casino", 5, events[-1].hash)])
    assert (
        f"audit chains intact: 5 events in 1 chains, head of all chains {digest} "
        "(events after the latest checkpoint walked (3 of 5), 1 anchors matched" in out.getvalue()
    )
