"""Table operations on the floor console, through Django's test client: who may do what, and bad
input that re-renders with a clear error and changes nothing. The flows in Chromium are in
test_table_operations_browser.py, which uses the helpers here."""

import pytest
from django import forms
from django.test import Client

from blackjack.models import Round
from casino.models import GameKind, InventoryKind, TableInventory
from floor.operations.words import dollars_in_words
from kernel.forms import SUBMISSION_KEY_FIELD, cents_from_dollars, new_submission_key
from table_money.models import ChipSlip, SlipStatus, SlipVoid
from tests.floor.form_keys import form_key, key_in, keyed, post_form
from tests.support.api import post
from tests.support.floor_operations import (
    CLOSER_CHIPS,
    DAY_SHIFT,
    Tables,
    clock,  # noqa: F401  (the fixed clock of the day shift, autouse)
    closed_in_previous_shift,
    count_form,
    open_now,
    open_round_at,
    page_messages,
    requested_fill,
    signed_in,
    staff_user,
)

pytestmark = pytest.mark.django_db


# --- dollars and words -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "cents"),
    [("1,250.00", 125_000), ("$1250", 125_000), ("1250.5", 125_050), ("0.07", 7), (" 20,000 ", 2_000_000)],
)
def test_dollars_typed_by_staff_become_exact_cents(typed: str, cents: int) -> None:
    assert cents_from_dollars(typed) == cents


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("12.345", "fraction of a cent"),
        ("-5", "cannot be negative"),
        ("1,25", "is not an amount in dollars"),
        ("twelve", "is not an amount in dollars"),
        ("1e3", "is not an amount in dollars"),
    ],
)
def test_amounts_that_are_not_whole_cents_are_refused_clearly(typed: str, message: str) -> None:
    with pytest.raises(forms.ValidationError, match=message):
        cents_from_dollars(typed)


def test_a_slip_amount_is_written_out_in_words() -> None:
    assert dollars_in_words(1_234_567) == "Twelve thousand three hundred forty-five dollars and 67/100"
    assert dollars_in_words(100) == "One dollar and 00/100"
    assert dollars_in_words(100_000_000) == "One million dollars and 00/100"


# --- who may see and act ---------------------------------------------------------------------


@pytest.mark.parametrize("role", ["compliance", "admin"])
def test_a_casino_wide_role_reads_the_table_page_without_actions_and_is_refused_every_post(
    make_table: Tables, role: str
) -> None:
    actors = make_table("BJ-OPS-1")
    supervisor = staff_user("floor_supervisor", pits=(actors.table.pit,))
    open_now(actors, by=supervisor)
    slip = requested_fill(actors, by=supervisor, chips={"2500": 4})
    reader = signed_in(staff_user(role))
    base = f"/floor/tables/{actors.table.pk}"

    page = reader.get(f"{base}/")
    assert page.status_code == 200
    assert b"Fill #1" in page.content
    assert b"/approve/" not in page.content
    assert b"Request a fill" not in page.content
    assert b"/floor/rule-changes/new/" not in page.content
    assert reader.get(f"{base}/slips/{slip.pk}/print/").status_code == 200

    for path, body in [
        (f"{base}/open/", count_form(CLOSER_CHIPS, total="3500")),
        (f"{base}/close/", count_form(CLOSER_CHIPS, total="3500")),
        (f"{base}/slips/new/", count_form({"2500": 4}, total="100", kind="fill")),
        (f"{base}/slips/{slip.pk}/approve/", {}),
        (f"{base}/slips/{slip.pk}/void/", {"reason": "not needed"}),
        (f"{base}/rounds/void/", {"round_id": "1", "reason": "misdeal", "confirmed": "True"}),
    ]:
        assert reader.post(path, body).status_code == 403, path
    slip.refresh_from_db()
    assert slip.status == SlipStatus.PENDING
    assert ChipSlip.objects.count() == 1
    assert TableInventory.objects.filter(table=actors.table).count() == 1


def test_a_supervisor_of_another_pit_gets_404_for_the_table_and_its_slips(make_table: Tables) -> None:
    actors = make_table("BJ-OPS-2", pit_name="Pit A")
    other = make_table("BJ-OPS-3", pit_name="Pit B")
    own_supervisor = staff_user("floor_supervisor", pits=(actors.table.pit,))
    open_now(actors, by=own_supervisor)
    slip = requested_fill(actors, by=own_supervisor, chips={"2500": 4})
    outsider = signed_in(staff_user("pit_boss", pits=(other.table.pit,)))
    base = f"/floor/tables/{actors.table.pk}"

    assert outsider.get(f"{base}/").status_code == 404
    assert outsider.get(f"{base}/slips/{slip.pk}/print/").status_code == 404
    assert outsider.post(f"{base}/slips/{slip.pk}/approve/").status_code == 404
    # A slip of one table is not reached through another table's address either.
    assert outsider.post(f"/floor/tables/{other.table.pk}/slips/{slip.pk}/approve/").status_code == 404
    slip.refresh_from_db()
    assert slip.status == SlipStatus.PENDING


def test_an_anonymous_visitor_is_sent_to_sign_in(client: Client) -> None:
    response = client.get("/floor/tables/1/")
    assert response.status_code == 302
    assert response["Location"].startswith("/floor/login/")


# --- opener and closer -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (count_form({"2500": -3}, total="-75"), "Chip counts cannot be negative."),
        (count_form({"2500": 4, "1234": 1}, total="100"), "Not a chip denomination in use: 1234"),
        (count_form({"2500": 4}, total="100.005"), "has a fraction of a cent"),
        (count_form({"2500": 4}, total="99"), "The chips counted come to $100.00, not the $99.00 entered"),
        (count_form({"2500": 4}, total=""), "This field is required."),
        (count_form({"2500": "2.5"}, total="62.50"), "Chip counts are whole numbers."),
    ],
)
def test_a_bad_opener_re_renders_with_a_clear_error_and_opens_nothing(
    make_table: Tables, body: dict[str, str], error: str
) -> None:
    actors = make_table("BJ-OPS-4")
    supervisor = signed_in(staff_user("floor_supervisor", pits=(actors.table.pit,)))
    response = post_form(supervisor, f"/floor/tables/{actors.table.pk}/open/", body)
    assert response.status_code == 200
    assert error in response.content.decode()
    assert not TableInventory.objects.filter(table=actors.table).exists()


def test_an_opener_that_differs_from_the_previous_closer_waits_for_confirmation(make_table: Tables) -> None:
    actors = make_table("BJ-OPS-5")
    boss = staff_user("pit_boss", pits=(actors.table.pit,))
    closed_in_previous_shift(actors, by=boss)
    client = signed_in(boss)
    url = f"/floor/tables/{actors.table.pk}/open/"

    proposed = client.get(url)
    assert proposed.context["form"].initial == {
        "count_10000": 20,
        "count_2500": 40,
        "count_500": 100,
        "total": "$3,500.00",
    }

    counted = {**CLOSER_CHIPS, "2500": 38}  # two $25 chips short: $3,450
    key = form_key(client, url)
    review = client.post(url, count_form(counted, total="3,450.00", submission_key=key))
    assert review.status_code == 200
    assert review.context["review"] is True
    assert [row.denomination_cents for row in review.context["rows"] if row.differs] == [2500]
    assert review.context["difference_cents"] == -5_000
    assert "-$50.00" in review.content.decode()
    assert key_in(review) == key  # the review keeps the key of the page: one opener, however sent
    assert not TableInventory.objects.filter(
        table=actors.table, kind=InventoryKind.OPENER, gaming_day=DAY_SHIFT.date()
    ).exists()

    # A confirmation of other counts than the ones reviewed is reviewed again.
    changed = client.post(
        url,
        count_form(
            {**counted, "500": 99},
            total="3,445",
            reviewed=review.context["review_fingerprint"],
            submission_key=key,
        ),
    )
    assert changed.context["review"] is True

    confirmed = client.post(
        url,
        count_form(
            counted, total="3,450.00", reviewed=review.context["review_fingerprint"], submission_key=key
        ),
    )
    assert confirmed.status_code == 302
    opener = TableInventory.objects.get(table=actors.table, gaming_day=DAY_SHIFT.date(), shift="day")
    assert (opener.kind, opener.total_cents, opener.previous_closer_cents) == ("opener", 345_000, 350_000)
    assert opener.chips == {"500": 100, "2500": 38, "10000": 20}
    assert opener.supervisor_id == boss.pk


def test_an_opener_equal_to_the_previous_closer_opens_at_once_and_a_second_is_refused(
    make_table: Tables,
) -> None:
    actors = make_table("BJ-OPS-6")
    supervisor = staff_user("floor_supervisor", pits=(actors.table.pit,))
    closed_in_previous_shift(actors, by=supervisor)
    client = signed_in(supervisor)
    url = f"/floor/tables/{actors.table.pk}/open/"

    opened = post_form(client, url, count_form(CLOSER_CHIPS, total="3500"), follow=True)
    assert "BJ-OPS-6 is open for the 2026-11-20 day shift with $3,500.00." in page_messages(opened)

    again = post_form(client, url, count_form(CLOSER_CHIPS, total="3500"))
    assert again.status_code == 200
    assert "BJ-OPS-6 is already open" in again.content.decode()
    assert TableInventory.objects.filter(table=actors.table, kind=InventoryKind.OPENER).count() == 2


def test_a_points_table_opens_and_closes_with_no_chips_nor_dollars(make_table: Tables) -> None:
    actors = make_table("SP-OPS-1", game=GameKind.SPECIAL_POINTS)
    boss = staff_user("pit_boss", pits=(actors.table.pit,))
    client = signed_in(boss)
    table_url = f"/floor/tables/{actors.table.pk}/"

    never_opened = client.get(table_url).content.decode()
    open_page = client.get(f"{table_url}open/").content.decode()
    opened = post_form(client, f"{table_url}open/", {}, follow=True)
    open_table_page = client.get(table_url).content.decode()
    close_page = client.get(f"{table_url}close/").content.decode()
    closed = post_form(client, f"{table_url}close/", {}, follow=True)

    assert "Open it (no chips are counted)." in never_opened
    for page in (open_page, close_page):
        assert "played for points, not money: it has no chip tray" in page
        assert "Opener total (dollars)" not in page
        assert "Closer total (dollars)" not in page
        assert 'class="data count-form"' not in page
    assert "SP-OPS-1 is open for the 2026-11-20 day shift (points, no chips counted)." in page_messages(
        opened
    )
    assert "Points, not money: no chips counted." in open_table_page
    assert "$0.00" not in open_table_page
    assert "SP-OPS-1 is closed for the 2026-11-20 day shift (points, no chips counted)." in page_messages(
        closed
    )
    counts = TableInventory.objects.filter(table=actors.table).order_by("pk")
    assert [(c.kind, c.total_cents, c.chips) for c in counts] == [
        (InventoryKind.OPENER, 0, {}),
        (InventoryKind.CLOSER, 0, {}),
    ]


def test_closing_needs_a_dealer_signed_in_and_records_the_closer(make_table: Tables) -> None:
    actors = make_table("BJ-OPS-7")
    supervisor = staff_user("floor_supervisor", pits=(actors.table.pit,))
    open_now(actors, by=supervisor)
    client = signed_in(supervisor)
    url = f"/floor/tables/{actors.table.pk}/close/"
    post(actors.terminal, "/api/v1/terminal/sign-out/")

    refused = post_form(client, url, count_form({"10000": 35}, total="3,500"))
    assert "A dealer must be signed in at BJ-OPS-7" in refused.content.decode()
    assert not TableInventory.objects.filter(kind=InventoryKind.CLOSER).exists()

    actors.sign_in()
    closed = post_form(client, url, count_form({"10000": 35}, total="3,500"), follow=True)
    assert "BJ-OPS-7 is closed for the 2026-11-20 day shift with $3,500.00." in page_messages(closed)
    assert TableInventory.objects.get(kind=InventoryKind.CLOSER).chips == {"10000": 35}


# --- fills and credits -----------------------------------------------------------------------


def test_a_slip_is_approved_once_by_a_second_person_only(make_table: Tables) -> None:
    actors = make_table("BJ-OPS-8")
    requester = staff_user("floor_supervisor", pits=(actors.table.pit,))
    approver = staff_user("pit_boss", pits=(actors.table.pit,))
    open_now(actors, by=requester)
    base = f"/floor/tables/{actors.table.pk}"
    page = signed_in(requester).get(f"{base}/")
    assert f'href="/floor/rule-changes/new/?table={actors.table.pk}"'.encode() in page.content

    requested = post_form(
        signed_in(requester),
        f"{base}/slips/new/",
        count_form({"10000": 10, "2500": 8}, total="1,200.00", kind="fill"),
        follow=True,
    )
    assert "Fill #1 for $1,200.00 is requested: a second supervisor approves it." in page_messages(requested)
    slip = ChipSlip.objects.get()
    assert (slip.amount_cents, slip.chips, slip.requested_by_user_id) == (
        120_000,
        {"2500": 8, "10000": 10},
        requester.pk,
    )

    approve = f"{base}/slips/{slip.pk}/approve/"
    # The requester is shown neither Approve nor Void, and a POST sent anyway is refused.
    own_page = signed_in(requester).get(f"{base}/").content.decode()
    assert f'action="{approve}"' not in own_page
    assert f"/slips/{slip.pk}/void/" not in own_page
    assert "You requested this slip: a second supervisor approves or voids it." in own_page
    own = signed_in(requester).post(approve, {SUBMISSION_KEY_FIELD: new_submission_key()}, follow=True)
    assert (
        "Fill #1 was not approved. Fill #1 was requested by you: another supervisor approves it."
        in page_messages(own)
    )
    slip.refresh_from_db()
    assert slip.status == SlipStatus.PENDING

    # A second tab of the table page, rendered before the approval: its own key, a second approval.
    other_tab = keyed(signed_in(approver), f"{base}/", {}, action=approve)
    approved = post_form(signed_in(approver), approve, {}, page=f"{base}/", follow=True)
    assert "Fill #1 for $1,200.00 is approved." in page_messages(approved)
    twice = signed_in(approver).post(approve, other_tab, follow=True)
    assert "only a pending slip is approved" in " ".join(page_messages(twice))
    slip.refresh_from_db()
    assert (slip.status, slip.approved_by_id) == (SlipStatus.APPROVED, approver.pk)


def test_a_slip_request_needs_chips_that_add_up(make_table: Tables) -> None:
    actors = make_table("BJ-OPS-9")
    supervisor = staff_user("floor_supervisor", pits=(actors.table.pit,))
    open_now(actors, by=supervisor)
    client = signed_in(supervisor)
    url = f"/floor/tables/{actors.table.pk}/slips/new/"

    assert (
        "Count at least one chip."
        in post_form(client, url, count_form({}, total="0", kind="credit")).content.decode()
    )
    assert (
        "not the $1.00 entered"
        in post_form(client, url, count_form({"500": 1}, total="1", kind="fill")).content.decode()
    )
    assert (
        "Select a valid choice"
        in post_form(client, url, count_form({"500": 1}, total="5", kind="marker")).content.decode()
    )
    assert not ChipSlip.objects.exists()


def test_a_void_needs_a_reason_and_a_second_person(make_table: Tables) -> None:
    actors = make_table("BJ-OPS-10")
    requester = staff_user("floor_supervisor", pits=(actors.table.pit,))
    second = staff_user("floor_supervisor", pits=(actors.table.pit,))
    open_now(actors, by=requester)
    slip = requested_fill(actors, by=requester, chips={"50000": 2})
    url = f"/floor/tables/{actors.table.pk}/slips/{slip.pk}/void/"

    own_page = signed_in(requester).get(url).content.decode()
    assert "You requested this slip: a second person voids it." in own_page
    assert "Void the slip" not in own_page  # no form for who may not use it
    own = signed_in(requester).post(url, {"reason": "not needed", SUBMISSION_KEY_FIELD: new_submission_key()})
    assert "Fill #1 was requested by you: another supervisor voids it." in own.content.decode()
    blank = post_form(signed_in(second), url, {"reason": "   "})
    assert "Give the reason: it goes on the record." in blank.content.decode()
    assert not SlipVoid.objects.exists()

    voided = post_form(signed_in(second), url, {"reason": "runner brought the wrong rack"}, follow=True)
    assert "Fill #1 is void." in page_messages(voided)
    void = SlipVoid.objects.get(slip=slip)
    assert (void.reason, void.voided_by_id) == ("runner brought the wrong rack", second.pk)
    assert "This slip is void already." in signed_in(second).get(url).content.decode()
    again = signed_in(second).post(url, {"reason": "again", SUBMISSION_KEY_FIELD: new_submission_key()})
    assert "Fill #1 is already void." in again.content.decode()


def test_the_printed_slip_has_its_number_amount_in_words_people_and_signature_lines(
    make_table: Tables,
) -> None:
    actors = make_table("BJ-OPS-11", pit_name="High limit")
    requester = staff_user("floor_supervisor", pits=(actors.table.pit,))
    open_now(actors, by=requester)
    slip = requested_fill(actors, by=requester, chips={"100000": 2, "2500": 2})
    page = (
        signed_in(requester).get(f"/floor/tables/{actors.table.pk}/slips/{slip.pk}/print/").content.decode()
    )
    for text in [
        "Fill slip",
        "No. 000001",
        "High limit",
        "2026-11-20, day shift",
        "$2,050.00",
        "Two thousand fifty dollars and 00/100",
        "2026-11-20 10:00 PST",
        "data-print>Print</button>",
        "floor/console.js",
    ]:
        assert text in page, text
    for line in ["Dealer", "Floor supervisor", "Cage cashier", "Runner", "Security"]:
        assert f"<span>{line}</span>" in page


# --- round voids -----------------------------------------------------------------------------


def test_a_round_void_is_confirmed_needs_a_reason_and_only_voids_an_open_round_of_this_table(
    make_table: Tables,
) -> None:
    actors = make_table("BJ-OPS-12")
    elsewhere = make_table("BJ-OPS-13")
    supervisor = staff_user("floor_supervisor", pits=(actors.table.pit,))
    round_id = open_round_at(actors)
    other_round = open_round_at(elsewhere)
    client = signed_in(supervisor)
    url = f"/floor/tables/{actors.table.pk}/rounds/void/"

    no_reason = post_form(client, url, {"round_id": str(round_id), "reason": ""})
    assert "Give the reason: it goes on the record." in no_reason.content.decode()
    wrong_table = post_form(
        client, url, {"round_id": str(other_round), "reason": "misdeal", "confirmed": "True"}
    )
    assert f"Round {other_round} is not a round of BJ-OPS-12." in wrong_table.content.decode()
    confirm = post_form(client, url, {"round_id": str(round_id), "reason": "misdeal"})
    assert f"Void round {round_id} at BJ-OPS-12?" in confirm.content.decode()
    assert "$50.00" in confirm.content.decode()
    assert Round.objects.get(pk=round_id).state == "dealing"

    voided = client.post(
        url,
        {
            "round_id": str(round_id),
            "reason": "misdeal",
            "confirmed": "True",
            "submission_key": key_in(confirm),
        },
        follow=True,
    )
    assert f"Round {round_id} is void: every wager is returned." in page_messages(voided)
    round_ = Round.objects.get(pk=round_id)
    assert (round_.state, round_.void_reason, round_.voided_by_id) == ("void", "misdeal", supervisor.pk)
    again = post_form(client, url, {"round_id": str(round_id), "reason": "misdeal", "confirmed": "True"})
    assert f"Round {round_id} is already void: only an open round is voided." in again.content.decode()
    assert Round.objects.get(pk=other_round).state == "dealing"
