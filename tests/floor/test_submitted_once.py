"""Every money form of the console records exactly once (DESIGN.md, Principles 5).

Each form carries the one-time key of the page it was rendered in. Sent twice with that key (a
double click, a resend), it records once and the second answer says "Already recorded", pointing
to the same record; without a well-formed key it records nothing and says why; two renders of a
form are two deliberate submissions. The races of the same key are in
test_submitted_once_races.py.
"""

from typing import Any

import pytest
from django.contrib.staticfiles import finders

from blackjack.models import Round
from casino.models import InventoryKind, TableInventory
from floor.submissions import already_recorded
from kernel.forms import NO_SUBMISSION_KEY, SUBMISSION_KEY_FIELD, is_submission_key
from kernel.models import IdempotencyRecord
from table_money.models import ChipRedemption, MtlEntry
from tests.floor.form_keys import form_key, key_in, keyed
from tests.support.api import post
from tests.support.floor_operations import (
    clock,  # noqa: F401  (the fixed clock of the day shift, autouse)
    count_form,
    open_now,
    page_messages,
    signed_in,
    staff_user,
)
from tests.support.submissions import SCENARIOS, Tables, _cage, _round_void, added, tally

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("form", SCENARIOS)
def test_a_form_sent_twice_with_its_key_records_once_and_says_already_recorded(
    make_table: Tables, form: str
) -> None:
    scenario = SCENARIOS[form](make_table)
    body = scenario.keyed_body()
    before = tally()

    first = scenario.client.post(scenario.url, body, follow=True)
    once = tally()
    second = scenario.client.post(scenario.url, body, follow=True)

    assert scenario.done in page_messages(first)
    assert {name: count for name, count in added(before, once).items() if name in scenario.records} == (
        scenario.records
    )
    assert added(before, once)["audit_events"] >= 1
    assert tally() == once  # nothing at all recorded by the second
    assert already_recorded(scenario.done) in page_messages(second)
    assert scenario.done not in [str(m) for m in page_messages(second)]
    # The same answer, pointing to the same record.
    assert second.redirect_chain[0] == first.redirect_chain[0]
    assert IdempotencyRecord.objects.filter(key=body[SUBMISSION_KEY_FIELD]).count() == 1


def test_a_repeated_cash_out_points_to_its_redemption_and_makes_one_mtl_line(make_table: Tables) -> None:
    scenario = _cage(make_table)
    body = scenario.keyed_body()

    answers = [scenario.client.post(scenario.url, body) for _ in range(4)]

    (redemption,) = ChipRedemption.objects.all()
    assert redemption.amount_cents == 310_000
    assert MtlEntry.objects.get().amount_cents == 310_000
    assert {answer["Location"] for answer in answers} == {f"/floor/cage/#redemption-{redemption.pk}"}


BAD_KEYS: list[tuple[str, dict[str, Any]]] = [
    ("none", {}),
    ("empty", {SUBMISSION_KEY_FIELD: ""}),
    ("short", {SUBMISSION_KEY_FIELD: "abc"}),
    ("garbled", {SUBMISSION_KEY_FIELD: "A" * 42 + "!"}),
    ("long", {SUBMISSION_KEY_FIELD: "A" * 44}),
    ("markup", {SUBMISSION_KEY_FIELD: '"><script>alert(1)</script>'}),
    ("nul", {SUBMISSION_KEY_FIELD: "A" * 42 + "\x00"}),
    ("two", {SUBMISSION_KEY_FIELD: ["A" * 43, "B" * 43]}),
]


@pytest.mark.parametrize("form", SCENARIOS)
def test_a_form_without_a_good_key_is_refused_clearly_and_records_nothing(
    make_table: Tables, form: str
) -> None:
    scenario = SCENARIOS[form](make_table)
    before = tally()

    for name, key in BAD_KEYS:
        answer = scenario.client.post(scenario.url, {**scenario.body, **key})

        page = answer.content.decode()
        assert answer.status_code in (200, 400), name
        assert NO_SUBMISSION_KEY in page, name
        assert "<script>alert(1)" not in page, name
        if scenario.button:
            assert answer.status_code == 400, name
        else:
            assert is_submission_key(key_in(answer)), name  # shown again with a fresh key to send
        assert tally() == before, name
    assert not IdempotencyRecord.objects.filter(scope__startswith="form:").exists()

    # The same form, sent as rendered, records.
    done = scenario.client.post(scenario.url, scenario.keyed_body(), follow=True)
    assert scenario.done in page_messages(done)


def test_two_renders_of_a_form_are_two_deliberate_cash_outs(make_table: Tables) -> None:
    scenario = _cage(make_table)
    first_tab, second_tab = scenario.keyed_body(), scenario.keyed_body()
    assert first_tab[SUBMISSION_KEY_FIELD] != second_tab[SUBMISSION_KEY_FIELD]

    first = scenario.client.post(scenario.url, first_tab, follow=True)
    second = scenario.client.post(scenario.url, second_tab, follow=True)

    assert page_messages(first) == page_messages(second) == [scenario.done]
    assert ChipRedemption.objects.count() == 2
    assert MtlEntry.objects.count() == 2


def test_a_recorded_key_sent_with_other_entries_records_nothing_and_offers_a_fresh_key(
    make_table: Tables,
) -> None:
    scenario = _cage(make_table)
    body = scenario.keyed_body()
    scenario.client.post(scenario.url, body)

    other_entries = {"total": "200.00", "count_100000": "0", "count_10000": "2"}
    edited = scenario.client.post(scenario.url, {**body, **other_entries})

    page = edited.content.decode()
    assert edited.status_code == 200
    assert "This form was already submitted and recorded (Paid $3,100.00 to Man, grey suit.)" in page
    assert ChipRedemption.objects.count() == 1
    fresh = key_in(edited)
    assert is_submission_key(fresh)
    assert fresh != body[SUBMISSION_KEY_FIELD]
    again = scenario.client.post(
        scenario.url, {**body, **other_entries, SUBMISSION_KEY_FIELD: fresh}, follow=True
    )
    assert "Paid $200.00 to Man, grey suit." in page_messages(again)
    assert sorted(ChipRedemption.objects.values_list("amount_cents", flat=True)) == [20_000, 310_000]


def test_a_refused_submission_leaves_its_key_unused(make_table: Tables) -> None:
    actors = make_table("BJ-ONCE-9")
    supervisor = staff_user("floor_supervisor", pits=(actors.table.pit,))
    open_now(actors, by=supervisor)
    client = signed_in(supervisor)
    url = f"/floor/tables/{actors.table.pk}/close/"
    body = keyed(client, url, count_form({"10000": 35}, total="3,500"))
    post(actors.terminal, "/api/v1/terminal/sign-out/")

    refused = client.post(url, body)

    assert "A dealer must be signed in at BJ-ONCE-9" in refused.content.decode()
    assert key_in(refused) == body[SUBMISSION_KEY_FIELD]
    assert not IdempotencyRecord.objects.filter(key=body[SUBMISSION_KEY_FIELD]).exists()
    actors.sign_in()
    closed = client.post(url, body, follow=True)
    assert "BJ-ONCE-9 is closed for the 2026-11-20 day shift with $3,500.00." in page_messages(closed)
    assert TableInventory.objects.filter(kind=InventoryKind.CLOSER).count() == 1


def test_a_round_void_keeps_the_key_of_its_page_through_the_confirmation(make_table: Tables) -> None:
    scenario = _round_void(make_table)
    key = form_key(scenario.client, scenario.url)
    unconfirmed = {**scenario.body, SUBMISSION_KEY_FIELD: key}
    del unconfirmed["confirmed"]

    confirm = scenario.client.post(scenario.url, unconfirmed)
    assert key_in(confirm) == key
    confirmed = {**unconfirmed, "confirmed": "True"}
    first = scenario.client.post(scenario.url, confirmed, follow=True)
    second = scenario.client.post(scenario.url, confirmed, follow=True)

    assert page_messages(first) == [scenario.done]
    assert page_messages(second) == [already_recorded(scenario.done)]
    assert Round.objects.filter(state="void").count() == 1


def test_keys_are_scoped_to_the_signed_in_user(make_table: Tables) -> None:
    scenario = _cage(make_table)
    body = scenario.keyed_body()
    other = staff_user("cage_cashier")
    other_cashier = signed_in(other)

    mine = scenario.client.post(scenario.url, body, follow=True)
    theirs = other_cashier.post(scenario.url, body, follow=True)

    assert page_messages(mine) == page_messages(theirs) == [scenario.done]
    assert ChipRedemption.objects.count() == 2
    scopes = set(
        IdempotencyRecord.objects.filter(key=body[SUBMISSION_KEY_FIELD]).values_list("scope", flat=True)
    )
    assert scopes == {f"form:{scenario.user.pk}:cage.redemption", f"form:{other.pk}:cage.redemption"}


def test_every_money_form_renders_a_fresh_key(make_table: Tables) -> None:
    for build in SCENARIOS.values():
        scenario = build(make_table)
        first, second = (
            form_key(scenario.client, scenario.page, action=scenario.url if scenario.button else None)
            for _ in range(2)
        )
        assert is_submission_key(first)
        assert is_submission_key(second)
        assert first != second


def test_a_console_page_loads_the_submit_once_script_from_a_file(make_table: Tables) -> None:
    scenario = _cage(make_table)
    page = scenario.client.get(scenario.page).content.decode()
    assert '<script src="/static/floor/submit-once.js" defer></script>' in page
    assert "<script>" not in page  # no inline script on a money form's page
    assert finders.find("floor/submit-once.js") is not None
