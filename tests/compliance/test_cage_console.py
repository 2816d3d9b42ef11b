"""The cage page on the console: a cash-out reviewed, confirmed and paid once; the stop at the CTR
line with the way to the patron's identification; a supervisor's override signed with their own
password; the patron's gaming day as the number is typed; and hostile input, refused with a form
error and nothing recorded."""

from typing import Any, cast

import pytest
from django.test import Client
from rest_framework.test import APIClient

from audit.models import AuditEvent
from table_money.models import ChipRedemption
from tests.floor.form_keys import key_in, post_form
from tests.support.api import TableActors, cash_buy_in, new_patron, ok
from tests.support.factories import StaffFactory
from tests.support.floor_operations import count_form

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("title31_clock")]

BOSS_PASSWORD = "pw-2026-window-boss"


def _signed_in(role: str, username: str) -> Client:
    client = Client()
    client.force_login(cast(Any, StaffFactory.create(username=username, role=role).user))
    return client


@pytest.fixture
def window() -> Client:
    return _signed_in("cage_cashier", "cashier-console")


def _confirm(client: Client, review: Any, body: dict[str, str], **extra: str) -> Any:
    return client.post(
        "/floor/cage/", {**body, "submission_key": key_in(review), "confirmed": "True", **extra}
    )


def test_the_review_shows_the_patron_amount_chips_and_day_then_pays_once(
    open_tables: list[TableActors], supervisor_client: APIClient, window: Client
) -> None:
    ana = new_patron(
        supervisor_client, "Ana Ruiz", identification_type="passport", identification_reference="X1"
    )
    ok(cash_buy_in(open_tables[0], 1_200_000, patron=ana), 201)
    body = count_form({"500000": 2, "100000": 1}, total="11,000", patron=str(ana), description="")

    review = post_form(window, "/floor/cage/", body)
    page = review.content.decode()

    assert review.status_code == 200
    for text in (
        f"Patron {ana} Ana Ruiz",
        "(identified: Passport)",
        "$12,000.00",  # cash in today
        "$11,000.00",
        "<strong>Due</strong>",
        "Confirm and pay $11,000.00",
        "$5,000.00",
    ):
        assert text in page, text
    assert "identification-stop" not in page
    assert not ChipRedemption.objects.exists()

    paid = _confirm(window, review, body)
    again = _confirm(window, review, body)  # the confirmation sent twice: one payment
    assert paid.status_code == again.status_code == 302
    (made,) = ChipRedemption.objects.all()
    assert (made.amount_cents, made.chips, made.patron.number if made.patron else None) == (
        1_100_000,
        {"100000": 1, "500000": 2},
        ana,
    )


def test_an_unidentified_patron_over_the_line_is_stopped_with_the_way_to_identify_them(
    open_tables: list[TableActors], supervisor_client: APIClient, window: Client
) -> None:
    bea = new_patron(supervisor_client, "Bea Kim")
    ok(cash_buy_in(open_tables[0], 300_000, patron=bea), 201)
    body = count_form({"500000": 2, "100000": 1}, total="11,000.00", patron=str(bea), description="")

    review = post_form(window, "/floor/cage/", body)
    page = review.content.decode()
    assert "Stop: identify the patron before paying." in page
    assert f'href="/floor/patrons/{bea}/#patron-identify"' in page
    assert "Pay on the supervisor&#x27;s override" in page or "Pay on the supervisor's override" in page
    assert "Confirm and pay" not in page

    refused = _confirm(window, review, body)  # confirmed without any override
    assert refused.status_code == 200
    assert "over the CTR line of $10,000.00" in refused.content.decode()
    assert not ChipRedemption.objects.exists()


def test_someone_not_on_file_over_the_line_is_sent_to_put_them_on_file(
    open_tables: list[TableActors], window: Client
) -> None:
    body = count_form({"1000000": 1, "100": 1}, total="10,001", patron="", description="Man, grey suit")
    page = post_form(window, "/floor/cage/", body).content.decode()
    assert "Stop: identify the patron before paying." in page
    assert 'href="/floor/patrons/"' in page
    assert "(not on file)" in page


def test_a_supervisor_signs_the_override_with_their_own_password_and_reason(
    open_tables: list[TableActors], supervisor_client: APIClient, window: Client
) -> None:
    StaffFactory.create(username="window-boss", role="pit_boss", password=BOSS_PASSWORD)
    StaffFactory.create(username="other-cashier", role="cage_cashier", password=BOSS_PASSWORD)
    bea = new_patron(supervisor_client, "Bea Kim")
    body = count_form({"1000000": 1, "100000": 1}, total="11,000", patron=str(bea), description="")
    review = post_form(window, "/floor/cage/", body)
    reason = "Known patron; ID in the hotel safe"

    for override, error in [
        (
            {"supervisor": "window-boss", "supervisor_password": "wrong", "override_reason": reason},
            "do not sign",
        ),
        (
            {"supervisor": "window-boss", "supervisor_password": BOSS_PASSWORD, "override_reason": " "},
            "Give the reason",
        ),
        (
            {"supervisor": "window-boss", "supervisor_password": "", "override_reason": reason},
            "username and password",
        ),
        (
            {"supervisor": "other-cashier", "supervisor_password": BOSS_PASSWORD, "override_reason": reason},
            "Only a floor supervisor or a pit boss",
        ),
    ]:
        answer = _confirm(window, review, body, **override)
        assert answer.status_code == 200
        assert error in answer.content.decode(), error
        assert BOSS_PASSWORD not in answer.content.decode()
    assert not ChipRedemption.objects.exists()
    assert not AuditEvent.objects.filter(event_type="compliance.identification.overridden").exists()

    paid = _confirm(
        window,
        review,
        body,
        supervisor="window-boss",
        supervisor_password=BOSS_PASSWORD,
        override_reason=reason,
    )
    assert paid.status_code == 302
    (made,) = ChipRedemption.objects.all()
    assert made.identification_override_reason == reason
    assert made.identification_override_by is not None
    assert made.identification_override_by.get_username() == "window-boss"
    page = window.get("/floor/cage/").content.decode()
    assert "Overridden" in page
    assert reason in page


def test_the_patrons_day_shows_as_the_number_is_typed(
    open_tables: list[TableActors], supervisor_client: APIClient, window: Client
) -> None:
    ana = new_patron(supervisor_client, "Ana Ruiz")
    ok(cash_buy_in(open_tables[0], 450_000, patron=ana), 201)
    shown = window.get("/floor/cage/patron-day/", {"patron": str(ana)}).content.decode()
    assert "$4,500.00" in shown
    assert "not identified" in shown
    for junk in ("999999", "abc", "-1", "1e9", "", "9" * 40):
        answer = window.get("/floor/cage/patron-day/", {"patron": junk})
        assert answer.status_code == 200
        assert "Ana Ruiz" not in answer.content.decode()
    assert _signed_in("floor_supervisor", "sup-peek").get("/floor/cage/patron-day/").status_code == 403


@pytest.mark.parametrize(
    "body",
    [
        count_form({"100000": 3}, total="3,100", patron="", description="Man"),  # chips do not add up
        count_form({}, total="0", patron="", description="Man"),  # no chips
        count_form({"700": 1}, total="7", patron="", description="Man"),  # no such denomination
        count_form({"100000": -3}, total="-3,000", patron="", description="Man"),
        count_form({"100000": 10**9}, total="1", patron="", description="Man"),
        count_form({"100000": 1}, total="1,000.001", patron="", description="Man"),
        count_form({"100000": 1}, total="1000", patron="77", description=""),  # not on file
        count_form({"100000": 1}, total="1000", patron="abc", description=""),
        count_form({"100000": 1}, total="1000", patron="", description=""),  # nobody named
        count_form({"100000": 1}, total="1000", patron="", description="x" * 151),
        count_form(
            {"100000": 1}, total="1000", patron="", description="Man", confirmed="True", supervisor="x" * 151
        ),
        count_form({"100000": 1}, total="<script>", patron="", description="Man", confirmed="True"),
    ],
)
def test_hostile_input_is_a_form_error_and_records_nothing(
    open_tables: list[TableActors], window: Client, body: dict[str, str]
) -> None:
    answer = post_form(window, "/floor/cage/", body)
    page = answer.content.decode()
    assert answer.status_code == 200
    assert "errorlist" in page or "form-errors" in page
    assert "<script>" not in page.split("</head>", 1)[1].replace('<script src="', "")
    assert not ChipRedemption.objects.exists()


def test_a_confirmation_without_its_key_records_nothing(
    open_tables: list[TableActors], window: Client
) -> None:
    body = count_form({"100000": 1}, total="1000", patron="", description="Man", confirmed="True")
    answer = window.post("/floor/cage/", body)
    assert answer.status_code == 200
    assert "nothing was recorded" in answer.content.decode()
    assert not ChipRedemption.objects.exists()


def test_only_the_cage_cashier_uses_the_cage(open_tables: list[TableActors]) -> None:
    for role in ("floor_supervisor", "pit_boss", "compliance", "count_team"):
        client = _signed_in(role, f"{role}-at-cage")
        assert client.get("/floor/cage/").status_code == 403
        assert (
            client.post("/floor/cage/", count_form({"100000": 1}, total="1000", description="x")).status_code
            == 403
        )
    assert not ChipRedemption.objects.exists()
