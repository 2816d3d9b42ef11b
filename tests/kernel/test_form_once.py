"""The one-time key of a console money form (`kernel.forms.SubmittedOnceForm`) and its claim in
the idempotency store (`kernel.idempotency.record_form_once`), on the real PostgreSQL."""

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.http import QueryDict
from django.utils import timezone

from audit.context import AuditActor
from casino.models import LedgerTransaction
from kernel import idempotency
from kernel.forms import NO_SUBMISSION_KEY, SUBMISSION_KEY_FIELD, SubmittedOnceForm, is_submission_key
from kernel.idempotency import (
    FormOutcome,
    FormStillRunningError,
    form_fingerprint,
    form_scope,
    record_form_once,
)
from kernel.models import IdempotencyRecord
from table_money.models import ChipRedemption
from table_money.services import cage
from tests.support.factories import StaffFactory, restore_migrated_rows
from tests.support.races import advisory_lock_held

SYSTEM = AuditActor(kind="system", username="tests")
KEY = "k" * 43


def test_every_render_of_a_form_carries_a_fresh_random_key() -> None:
    keys = {SubmittedOnceForm()[SUBMISSION_KEY_FIELD].value() for _ in range(50)}
    assert len(keys) == 50
    assert all(is_submission_key(key) for key in keys)


def test_a_bound_form_keeps_its_key_and_a_bad_one_is_refused_and_renewed() -> None:
    good = SubmittedOnceForm(QueryDict(f"{SUBMISSION_KEY_FIELD}={KEY}"))
    assert good.is_valid()
    assert good.cleaned_data[SUBMISSION_KEY_FIELD] == KEY
    assert good[SUBMISSION_KEY_FIELD].value() == KEY

    bad = SubmittedOnceForm(QueryDict(f"{SUBMISSION_KEY_FIELD}=not-a-key"))
    assert not bad.is_valid()
    assert bad.non_field_errors() == [NO_SUBMISSION_KEY]
    renewed = bad[SUBMISSION_KEY_FIELD].value()
    assert is_submission_key(renewed)
    assert renewed != "not-a-key"


def test_the_fingerprint_is_the_entries_not_their_order_token_or_key() -> None:
    one = QueryDict(f"a=1&b=2&csrfmiddlewaretoken=x&{SUBMISSION_KEY_FIELD}={KEY}")
    same = QueryDict(f"b=2&a=1&csrfmiddlewaretoken=y&{SUBMISSION_KEY_FIELD}={'z' * 43}")
    other = QueryDict("a=1&b=3")
    assert form_fingerprint(path="/p/", data=one) == form_fingerprint(path="/p/", data=same)
    assert form_fingerprint(path="/p/", data=one) != form_fingerprint(path="/p/", data=other)
    assert form_fingerprint(path="/p/", data=one) != form_fingerprint(path="/q/", data=one)


@pytest.fixture
def cashier(db: None) -> Any:
    restore_migrated_rows()
    return StaffFactory.create(username="cashier-once", role="cage_cashier").user


def _redeem(cashier: Any) -> ChipRedemption:
    return cage.redeem_chips(
        amount_cents=50_000,
        chips=None,
        patron_number=None,
        description="Woman, blue scarf",
        cashier=cashier,
        actor=SYSTEM,
        now=timezone.now(),
    )


def _once(cashier: Any, record: Any, *, key: str = KEY, purpose: str = "cage.redemption") -> Any:
    return record_form_once(
        user_id=cashier.pk, purpose=purpose, key=key, path="/floor/cage/", fingerprint="f" * 64, record=record
    )


@pytest.mark.django_db
def test_a_change_that_fails_after_writing_leaves_neither_its_rows_nor_a_claimed_key(cashier: Any) -> None:
    def write_then_fail() -> FormOutcome:
        _redeem(cashier)
        raise RuntimeError("the process died half way")

    with pytest.raises(RuntimeError):
        _once(cashier, write_then_fail)

    assert not ChipRedemption.objects.exists()
    assert not LedgerTransaction.objects.exists()
    assert not IdempotencyRecord.objects.exists()
    # The key is free: the same form, sent again, records.
    first = _once(cashier, lambda: FormOutcome(message=f"redeemed {_redeem(cashier).pk}", location="/here/"))
    assert (first.replayed, ChipRedemption.objects.count()) == (False, 1)


@pytest.mark.django_db
def test_a_recorded_key_replays_its_outcome_for_its_user_and_purpose_only(cashier: Any) -> None:
    calls: list[int] = []

    def record() -> FormOutcome:
        calls.append(_redeem(cashier).pk)
        return FormOutcome(message="Paid.", location=f"/floor/cage/#redemption-{calls[-1]}")

    first = _once(cashier, record)
    again = _once(cashier, record)
    other_purpose = _once(cashier, record, purpose="slip.request")

    assert (first.replayed, again.replayed, other_purpose.replayed) == (False, True, False)
    assert again.outcome == first.outcome
    assert len(calls) == 2
    stored = IdempotencyRecord.objects.get(scope=form_scope(user_id=cashier.pk, purpose="cage.redemption"))
    assert (stored.key, stored.response_status) == (KEY, 302)


@pytest.mark.django_db
def test_the_change_runs_with_the_lock_timeout_it_had_before_the_claim(cashier: Any) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SHOW lock_timeout")
        (before,) = cursor.fetchone()
    seen: list[str] = []

    def record() -> FormOutcome:
        with connection.cursor() as cursor:
            cursor.execute("SHOW lock_timeout")
            seen.append(cursor.fetchone()[0])
        return FormOutcome(message="ok", location="/")

    _once(cashier, record)
    assert seen == [before]


@pytest.fixture
def held_key(transactional_db: None, cashier: Any) -> Iterator[None]:
    """Another connection holds the key's lock: its first submission still running."""
    scope = form_scope(user_id=cashier.pk, purpose="cage.redemption")
    with advisory_lock_held(idempotency._lock_id(scope, KEY)):
        yield


@pytest.mark.django_db(transaction=True)
def test_a_twin_that_waits_too_long_for_the_first_records_nothing(
    cashier: Any, held_key: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(idempotency, "FORM_LOCK_WAIT_MS", 200)

    with pytest.raises(FormStillRunningError):
        _once(cashier, lambda: FormOutcome(message=f"redeemed {_redeem(cashier).pk}", location="/"))

    assert not ChipRedemption.objects.exists()
    assert not IdempotencyRecord.objects.filter(key=KEY).exists()
