"""The database refuses UPDATE, DELETE and TRUNCATE on every audit table, from the app's connection."""

import pytest
from django.db import DatabaseError, connection, transaction
from psycopg import errors

from audit.dbroles import append_only_tables, grant_sql
from audit.models import AuditAnchor, AuditCheckpoint, AuditEvent
from audit.services import record_anchor, record_checkpoint
from bonus_tie.models import PaytableVersion
from history.models import TableHistory
from tests.audit.conftest import append
from tests.support.factories import TableFactory, TableLimitFactory, staff_with_key, terminal_with_key

TABLES = [
    "audit_auditevent",
    "audit_auditanchor",
    "audit_auditcheckpoint",
    "audit_tablehistory",
    "audit_tablelimithistory",
    "audit_paytableversionhistory",
    "audit_userhistory",
    "audit_staffprofilehistory",
    "audit_stafftokenhistory",
    "audit_terminalhistory",
    "audit_dealerhistory",
]


def _refused(sql: str) -> DatabaseError:
    with pytest.raises(DatabaseError) as caught, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)
    return caught.value


def test_every_audit_table_is_listed_here() -> None:
    assert sorted(TABLES) == append_only_tables()


@pytest.mark.django_db
def test_every_audit_table_carries_the_guard_triggers() -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "JOIN pg_proc p ON p.oid = t.tgfoid WHERE p.proname = 'audit_refuse_change' AND t.tgenabled = 'O'"
        )
        guarded = set(cursor.fetchall())

    for table in append_only_tables():
        assert (table, f"{table}_append_only") in guarded
        assert (table, f"{table}_no_truncate") in guarded


@pytest.fixture
def one_row_everywhere() -> None:
    append()
    record_anchor()
    record_checkpoint()
    table = TableFactory.create()  # and a history row for each tracked model:
    TableLimitFactory.create(table=table)
    terminal_with_key(table)
    staff_with_key("pit_boss")
    assert PaytableVersion.objects.exists()  # the migration's default, with its baseline row


@pytest.mark.django_db
@pytest.mark.parametrize("table", TABLES)
def test_update_delete_and_truncate_fail(table: str, one_row_everywhere: None) -> None:
    column = _some_column(table)
    update = _refused(f"UPDATE {table} SET {column} = {column}")  # noqa: S608
    delete = _refused(f"DELETE FROM {table}")  # noqa: S608
    truncate = _refused(f"SET LOCAL casino.allow_truncate = 'off'; TRUNCATE {table} CASCADE")

    for error in (update, delete, truncate):
        assert isinstance(error.__cause__, errors.InsufficientPrivilege)
        assert "append-only" in str(error)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {table}")  # noqa: S608
        assert cursor.fetchone()[0] >= 1


def _some_column(table: str) -> str:
    return {"audit_auditevent": "seq", "audit_auditanchor": "digest", "audit_auditcheckpoint": "ok"}.get(
        table, "pgh_label"
    )


@pytest.mark.django_db
def test_orm_update_and_delete_fail_too(one_row_everywhere: None) -> None:
    for queryset, change in [
        (AuditEvent.objects.all(), {"detail": "edited"}),
        (AuditCheckpoint.objects.all(), {"ok": False}),
        (AuditAnchor.objects.all(), {"events": 0}),
        (TableHistory.objects.all(), {"pgh_label": "edited"}),
    ]:
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            queryset.update(**change)
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            queryset.delete()
    event = AuditEvent.objects.get()
    event.detail = "edited"
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        event.save()


@pytest.mark.django_db
def test_an_insert_and_select_only_role_can_append_but_not_change() -> None:
    """The README's GRANT/REVOKE SQL, applied to a throwaway role (rolled back with the test)."""
    append()
    with connection.cursor() as cursor:
        cursor.execute("CREATE ROLE audit_test_app NOLOGIN NOSUPERUSER")
        cursor.execute(grant_sql("audit_test_app"))
        cursor.execute("SET LOCAL ROLE audit_test_app")
    try:
        second = append(subject_id="as app role")
        assert second.seq == 2
        assert record_anchor().events == 2
        for sql in (
            "UPDATE audit_auditevent SET detail = 'x'",
            "DELETE FROM audit_auditevent",
            "TRUNCATE audit_auditevent",
            "UPDATE audit_tablehistory SET pgh_label = 'x'",
        ):
            error = _refused(sql)
            assert isinstance(error.__cause__, errors.InsufficientPrivilege)
            assert "permission denied" in str(error)
        # Even the test database's reset switch does not give the role TRUNCATE.
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL casino.allow_truncate = 'on'")
        assert "permission denied" in str(_refused("TRUNCATE audit_auditevent"))
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET ROLE")
    assert AuditEvent.objects.count() == 2
