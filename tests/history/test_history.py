"""Configuration changes are captured by triggers: bulk and raw SQL too, never secrets."""

import pghistory
import pgtrigger
import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import RequestFactory

from audit.middleware import RequestContextMiddleware
from bonus_tie.models import PaytableVersion
from casino.api.authentication import Principal
from casino.models import StaffProfile, Table, TableLimit
from history.models import (
    HISTORY_MODELS,
    DealerHistory,
    PaytableVersionHistory,
    StaffProfileHistory,
    StaffTokenHistory,
    TableHistory,
    TableLimitHistory,
    TerminalHistory,
    UserHistory,
)
from tests.support.factories import TableFactory, TableLimitFactory, staff_with_key, terminal_with_key


@pytest.mark.django_db
def test_the_history_triggers_are_exactly_this_apps() -> None:
    """After the move from `audit`, one set of triggers per tracked table: the history app's."""
    expected = {
        (model._meta.db_table, trigger.get_pgid(model))
        for model, trigger in pgtrigger.registered()
        if model._meta.app_label == "history"
    }
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "WHERE t.tgname LIKE 'pgtrigger_%%' AND NOT t.tgisinternal"
        )
        installed = set(cursor.fetchall())
        cursor.execute("SELECT count(*) FROM pg_proc WHERE proname LIKE 'pgtrigger\\_%%'")
        (functions,) = cursor.fetchone()

    assert len(expected) == 28
    assert {pgid for _, pgid in expected} == {pgid for _, pgid in installed}
    assert functions == len(expected)  # the old triggers' functions are gone too
    assert all(model._meta.db_table.startswith("audit_") for model in HISTORY_MODELS)
    assert pghistory  # the tracking library in use


@pytest.mark.django_db
def test_bulk_update_is_captured_for_every_row() -> None:
    first, second = TableFactory.create(), TableFactory.create()

    updated = Table.objects.filter(pk__in=[first.pk, second.pk]).update(surrender=True, decks=8)

    assert updated == 2
    changes = TableHistory.objects.filter(pgh_label="update").order_by("pgh_obj_id")
    assert [(row.pgh_obj_id, row.surrender, row.decks) for row in changes] == [
        (first.pk, True, 8),
        (second.pk, True, 8),
    ]


@pytest.mark.django_db
def test_raw_sql_update_is_captured() -> None:
    table = TableFactory.create()

    with connection.cursor() as cursor:
        cursor.execute("UPDATE casino_table SET dealer_hits_soft_17 = true WHERE id = %s", [table.pk])

    change = TableHistory.objects.get(pgh_label="update", pgh_obj_id=table.pk)
    assert change.dealer_hits_soft_17 is True
    assert change.name == table.name


@pytest.mark.django_db
def test_inserts_deletes_and_limits_are_captured() -> None:
    table = TableFactory.create()
    limit = TableLimitFactory.create(table=table, kind="primary", min_cents=500, max_cents=50000)
    TableLimit.objects.filter(pk=limit.pk).update(max_cents=100000)
    TableLimit.objects.filter(pk=limit.pk).delete()

    rows = TableLimitHistory.objects.filter(pgh_obj_id=limit.pk).order_by("pgh_id")
    assert [(row.pgh_label, row.max_cents) for row in rows] == [
        ("insert", 50000),
        ("update", 100000),
        ("delete", 100000),
    ]
    assert TableHistory.objects.filter(pgh_obj_id=table.pk, pgh_label="insert").exists()


@pytest.mark.django_db
def test_no_secret_is_copied_into_history() -> None:
    fields = {
        model: {field.name for field in model._meta.fields}
        for model in (UserHistory, TerminalHistory, DealerHistory, StaffTokenHistory)
    }
    assert "password" not in fields[UserHistory]
    assert "key_hash" not in fields[TerminalHistory]
    assert "pin_hash" not in fields[DealerHistory]
    assert "key_hash" not in fields[StaffTokenHistory]
    with connection.cursor() as cursor:
        for model in fields:
            cursor.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = %s",
                [model._meta.db_table],
            )
            columns = {name for (name,) in cursor.fetchall()}
            assert not columns & {"password", "key_hash", "pin_hash"}


@pytest.mark.django_db
def test_secret_changes_are_recorded_as_facts_without_the_secret() -> None:
    staff = staff_with_key("pit_boss")
    user = staff.user
    assert user is not None
    user.set_password("another-password-2")
    user.save(update_fields=["password"])
    User.objects.filter(pk=user.pk).update(last_login="2026-11-20T18:00:00Z")  # not configuration

    labels = list(
        UserHistory.objects.filter(pgh_obj_id=user.pk).order_by("pgh_id").values_list("pgh_label", flat=True)
    )
    assert labels == ["insert", "secret_changed"]


@pytest.mark.django_db
def test_roles_terminals_and_paytables_are_tracked() -> None:
    staff = staff_with_key("floor_supervisor")
    assert staff.user is not None
    StaffProfile.objects.filter(user=staff.user).update(role="pit_boss")
    keyed = terminal_with_key(TableFactory.create())
    assert keyed.terminal is not None
    keyed.terminal.is_active = False
    keyed.terminal.save(update_fields=["is_active"])
    PaytableVersion.objects.filter(version=1).update(override_reason="edited by hand")

    assert list(
        StaffProfileHistory.objects.filter(user_id=staff.user.pk)
        .order_by("pgh_id")
        .values_list("pgh_label", "role")
    ) == [
        ("insert", "floor_supervisor"),
        ("update", "pit_boss"),
    ]
    assert TerminalHistory.objects.filter(
        pgh_obj_id=keyed.terminal.pk, pgh_label="update", is_active=False
    ).exists()
    paytable = PaytableVersion.objects.get(version=1)
    labels = set(
        PaytableVersionHistory.objects.filter(pgh_obj_id=paytable.pk).values_list("pgh_label", flat=True)
    )
    assert labels == {"baseline", "update"}  # the row predates tracking: its baseline was taken at install


@pytest.mark.django_db
def test_changes_made_in_a_request_carry_its_context() -> None:
    table = TableFactory.create()
    staff = staff_with_key("pit_boss", username="paula")
    assert staff.user is not None

    def view(request):
        request.user = Principal(user=staff.user, role="pit_boss")  # what DRF does on authentication
        Table.objects.filter(pk=table.pk).update(max_hands=2)
        from django.http import HttpResponse

        return HttpResponse("ok")

    request = RequestFactory().post(
        "/api/v1/tables/", HTTP_X_REQUEST_ID="req-42", HTTP_IDEMPOTENCY_KEY="idem-1", REMOTE_ADDR="10.2.3.4"
    )

    def handler(request):  # as Django's handler runs it: process_view just before the view
        middleware.process_view(request, view)
        return view(request)

    middleware = RequestContextMiddleware(handler)
    response = middleware(request)

    assert response["X-Request-ID"] == "req-42"
    change = TableHistory.objects.get(pgh_obj_id=table.pk, pgh_label="update")
    assert change.pgh_context_id is not None
    context = change.pgh_context
    assert context["request_id"] == "req-42"
    assert context["client_address"] == "10.2.3.4"
    assert context["idempotency_key"] == "idem-1"
    assert (context["user"], context["username"], context["role"]) == (staff.user.pk, "paula", "pit_boss")
