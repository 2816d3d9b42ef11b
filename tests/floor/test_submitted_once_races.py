"""Tabs of one page sending its money form at the same moment, each on its own connection to the
real PostgreSQL: the key's lock makes the others wait for the first, which records; they answer
"Already recorded" and record nothing."""

import html
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from casino.ledger_checks import find_violations
from floor.submissions import STILL_RUNNING, already_recorded
from kernel import idempotency
from kernel.forms import SUBMISSION_KEY_FIELD
from kernel.idempotency import form_scope
from table_money.models import ChipRedemption, MtlEntry
from tests.support.api import TableActors
from tests.support.floor_operations import clock  # noqa: F401  (the fixed clock of the day shift, autouse)
from tests.support.races import advisory_lock_held, race
from tests.support.submissions import SCENARIOS, added, tally

pytestmark = pytest.mark.django_db(transaction=True)

TABS = 4
_MESSAGE = re.compile(r'<li class="[^"]*" role="status">(.*?)</li>', re.S)
Tables = Callable[..., TableActors]


def shown_messages(response: Any) -> list[str]:
    """The messages on the page, read from its HTML: the test client's captured context is shared
    between threads, so it cannot tell the tabs apart."""
    return [html.unescape(text) for text in _MESSAGE.findall(response.content.decode())]


def send_from_tabs(
    form: str, make_table: Tables
) -> tuple[dict[str, int], dict[str, int], list[list[str]], str]:
    scenario = SCENARIOS[form](make_table)
    body = scenario.keyed_body()
    session = scenario.client.cookies[settings.SESSION_COOKIE_NAME].value
    before = tally()

    def tab(_: int) -> list[str]:
        browser_tab = Client()
        browser_tab.cookies[settings.SESSION_COOKIE_NAME] = session  # the tabs of one browser
        return shown_messages(browser_tab.post(scenario.url, body, follow=True))

    answers = race(tab, threads=TABS)
    return before, tally(), answers, scenario.done


def test_four_tabs_cashing_out_3100_with_one_key_pay_once_with_one_mtl_line(make_table: Tables) -> None:
    before, after, answers, done = send_from_tabs("cage cash-out", make_table)

    assert list(ChipRedemption.objects.values_list("amount_cents", flat=True)) == [310_000]
    assert list(MtlEntry.objects.values_list("amount_cents", flat=True)) == [310_000]
    assert added(before, after)["ledger_transactions"] == 1
    assert sorted(answers) == sorted([[done]] + [[already_recorded(done)]] * (TABS - 1))
    assert find_violations() == []


@pytest.mark.parametrize(
    "form",
    [
        "table opener",
        "fill request",
        "slip approval",
        "slip void",
        "soft count entry",
        "soft count second count",
    ],
)
def test_racing_tabs_with_one_key_record_once(make_table: Tables, form: str) -> None:
    before, after, answers, done = send_from_tabs(form, make_table)

    expected = {
        "table opener": {"openers": 1},
        "fill request": {"slips": 1},
        "slip approval": {"approved_slips": 1, "ledger_transactions": 1},
        "slip void": {"slip_voids": 1, "ledger_transactions": 1},
        "soft count entry": {"soft_counts": 1, "count_tallies": 1},
        "soft count second count": {"count_tallies": 1},
    }[form]
    assert {name: added(before, after).get(name, 0) for name in expected} == expected
    assert sorted(answers) == sorted([[done]] + [[already_recorded(done)]] * (TABS - 1))
    assert find_violations() == []


def test_a_tab_that_waits_too_long_for_the_first_says_so_and_records_nothing(
    make_table: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario = SCENARIOS["cage cash-out"](make_table)
    body = scenario.keyed_body()
    scope = form_scope(user_id=scenario.user.pk, purpose="cage.redemption")
    # The first tab's submission still running: another connection holds the key's lock.
    with advisory_lock_held(idempotency._lock_id(scope, body[SUBMISSION_KEY_FIELD])):
        monkeypatch.setattr(idempotency, "FORM_LOCK_WAIT_MS", 200)
        second_tab = scenario.client.post(scenario.url, body)

    assert second_tab.status_code == 200
    assert html.escape(STILL_RUNNING) in second_tab.content.decode()
    assert not ChipRedemption.objects.exists()
    # Nothing was recorded by either: the form, sent again, records once.
    assert scenario.client.post(scenario.url, body).status_code == 302
    assert ChipRedemption.objects.count() == 1
