"""The operators' commands: provisioning, staff, and the ledger check."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from casino.models import StaffProfile, StaffToken, Table, Terminal
from kernel.keys import key_matches, pin_matches

pytestmark = pytest.mark.django_db
# An empty database has no casino and no pit: the command creates them only when asked.
IN_A_NEW_PIT = ("--casino", "Main casino", "--create-casino", "--pit", "Main pit", "--create-pit")


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_provision_table_prints_its_one_time_secrets() -> None:
    printed = json.loads(run("provision_table", *IN_A_NEW_PIT, "--name", "BJ-07", "--decks", "6", "--h17", "--blackjack-pays", "6:5",
                             "--aggregate-limit-cents", "500000", "--surrender"))  # fmt: skip

    table = Table.objects.get(name="BJ-07")
    assert printed["table"] == "BJ-07"
    assert (table.decks, table.dealer_hits_soft_17, table.blackjack_pays_num, table.blackjack_pays_den) == (
        6,
        True,
        6,
        5,
    )
    assert (table.aggregate_limit_cents, table.surrender) == (500_000, True)
    terminal = Terminal.objects.get(table=table)
    assert key_matches(printed["terminal_token"], terminal.key_hash)
    assert printed["terminal_token"] not in terminal.key_hash
    from casino.models import Dealer

    assert pin_matches(
        printed["dealer"]["pin"], Dealer.objects.get(badge=printed["dealer"]["badge"]).pin_hash
    )


def test_provision_table_refuses_a_duplicate_name_with_a_plain_message() -> None:
    run("provision_table", *IN_A_NEW_PIT, "--name", "BJ-08", "--decks", "8")

    with pytest.raises(CommandError, match="already exists"):
        run("provision_table", *IN_A_NEW_PIT, "--name", "BJ-08", "--decks", "8")
    assert Table.objects.filter(name="BJ-08").count() == 1


def test_create_staff_prints_password_and_token() -> None:
    printed = json.loads(run("create_staff", "--username", "alice", "--role", "pit_boss"))

    assert printed["username"] == "alice"
    token = StaffToken.objects.get(user__username="alice")
    assert key_matches(printed["token"], token.key_hash)
    assert token.user.check_password(printed["password"])
    assert StaffProfile.objects.get(user=token.user).role == "pit_boss"


def test_create_staff_assigns_a_pit_boss_the_pits_named() -> None:
    run("provision_table", *IN_A_NEW_PIT, "--name", "BJ-10", "--decks", "6")
    run("provision_table", "--pit", "High limit", "--create-pit", "--name", "BJ-11", "--decks", "6")

    printed = json.loads(run("create_staff", "--username", "bea", "--role", "pit_boss", "--pit", "High limit",
                             "--pit", "Main pit"))  # fmt: skip

    assert printed["pits"] == ["High limit", "Main pit"]
    profile = StaffProfile.objects.get(user__username="bea")
    assert sorted(profile.pits.values_list("name", flat=True)) == ["High limit", "Main pit"]


def test_check_ledger_passes_on_a_sound_ledger() -> None:
    run("provision_table", *IN_A_NEW_PIT, "--name", "BJ-09", "--decks", "6")

    assert "Ledger OK" in run("check_ledger")


def test_check_ledger_fails_on_a_broken_ledger() -> None:
    run("provision_table", *IN_A_NEW_PIT, "--name", "BJ-10", "--decks", "6")
    table = Table.objects.get(name="BJ-10")
    with connection.cursor() as cursor:
        # A wager with no ledger movement behind it, written behind the services' back.
        cursor.execute(
            """
            INSERT INTO casino_shoe (table_id, mode, decks, dealt, salt_hex, commitment, cut_card_reached, opened_at)
            VALUES (%s, 'reported', 6, '{}', '', '', false, now()) RETURNING id""",
            [table.pk],
        )
        (shoe_id,) = cursor.fetchone()
        cursor.execute(
            """
            INSERT INTO casino_round (table_id, shoe_id, paytable_id, rules, opening, seq, state, terminal_id,
                                      dealer_id, opened_at, void_reason)
            SELECT %s, %s, (SELECT id FROM bonus_tie_paytableversion LIMIT 1), '{}', '[]', 0, 'dealing', t.id,
                   (SELECT id FROM casino_dealer LIMIT 1), now(), ''
              FROM casino_terminal t WHERE t.table_id = %s RETURNING id""",
            [table.pk, shoe_id, table.pk],
        )
        (round_id,) = cursor.fetchone()
        cursor.execute("""INSERT INTO casino_wager (round_id, seat, hand, kind, source, amount_cents, placed_at)
                          VALUES (%s, 1, 0, 'primary', 'open', 1000, now())""", [round_id])  # fmt: skip

    with pytest.raises(CommandError, match="1 ledger violation"):
        run("check_ledger")


def test_the_database_refuses_an_unbalanced_ledger_transaction() -> None:
    from django.db import IntegrityError, transaction

    run("provision_table", *IN_A_NEW_PIT, "--name", "BJ-11", "--decks", "6")
    table = Table.objects.get(name="BJ-11")

    def write_unbalanced() -> None:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                """INSERT INTO casino_ledgertransaction (kind, table_id, memo, created_at, gaming_day, shift)
                   VALUES ('fill', %s, '', now(), current_date, 'day') RETURNING id""",
                [table.pk],
            )
            (txn,) = cursor.fetchone()
            cursor.execute(
                """INSERT INTO casino_ledgerentry (transaction_id, account_id, amount_cents)
                   SELECT %s, id, 100 FROM casino_account WHERE table_id = %s AND kind = 'tray'""",
                [txn, table.pk],
            )
            cursor.execute(
                """INSERT INTO casino_ledgerentry (transaction_id, account_id, amount_cents)
                   SELECT %s, id, -99 FROM casino_account WHERE kind = 'cage'""",
                [txn],
            )
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the check that otherwise runs at commit

    with pytest.raises(IntegrityError, match="does not balance"):
        write_unbalanced()


def test_the_database_refuses_to_change_or_delete_ledger_rows() -> None:
    from django.db import transaction
    from django.db.utils import DatabaseError
    from django.utils import timezone

    from casino import ledger
    from casino.models import AccountKind, LedgerEntry, MovementKind

    run("provision_table", *IN_A_NEW_PIT, "--name", "BJ-12", "--decks", "6")
    table = Table.objects.get(name="BJ-12")
    ledger.post(kind=MovementKind.FILL, table=table, now=timezone.now(),
                entries=[(AccountKind.TRAY, 10_000), (AccountKind.CAGE, -10_000)])  # fmt: skip
    before = sorted(LedgerEntry.objects.values_list("id", "amount_cents"))

    for statement in ("UPDATE casino_ledgerentry SET amount_cents = 1", "DELETE FROM casino_ledgerentry"):
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(statement)

    assert sorted(LedgerEntry.objects.values_list("id", "amount_cents")) == before
