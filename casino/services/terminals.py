"""Dealer sign-in and sign-out at a terminal."""

import datetime as dt

from django.db import transaction

from audit.context import AuditActor
from audit.services import record_event
from casino.locks import lock_terminal
from casino.models import Dealer, Terminal
from kernel.errors import BadCredentialsError
from kernel.keys import pin_matches


@transaction.atomic
def sign_in_dealer(
    *, terminal: Terminal, badge: str, pin: str, actor: AuditActor, now: dt.datetime
) -> Terminal:
    dealer = Dealer.objects.filter(badge=badge, is_active=True).first()
    if dealer is None or not pin_matches(pin, dealer.pin_hash):
        raise BadCredentialsError("bad_credentials", "Unknown badge or wrong PIN.")
    terminal = lock_terminal(terminal_id=terminal.pk)
    before = {"dealer": terminal.dealer.badge if terminal.dealer else None}
    terminal.dealer = dealer
    terminal.dealer_signed_in_at = now
    terminal.save(update_fields=["dealer", "dealer_signed_in_at"])
    record_event(
        event_type="casino.dealer.signed_in",
        actor=actor,
        table_id=terminal.table_id,
        table_name=terminal.table.name,
        subject_type="dealer",
        subject_id=str(dealer.pk),
        subject_label=dealer.badge,
        before=before,
        after={"dealer": dealer.badge},
        occurred_at=now,
    )
    return terminal


@transaction.atomic
def sign_out_dealer(*, terminal: Terminal, actor: AuditActor, now: dt.datetime) -> Terminal:
    terminal = lock_terminal(terminal_id=terminal.pk)
    dealer = terminal.dealer
    terminal.dealer = None
    terminal.dealer_signed_in_at = None
    terminal.save(update_fields=["dealer", "dealer_signed_in_at"])
    record_event(
        event_type="casino.dealer.signed_out",
        actor=actor,
        table_id=terminal.table_id,
        table_name=terminal.table.name,
        subject_type="dealer",
        subject_id=str(dealer.pk) if dealer else "",
        subject_label=dealer.badge if dealer else "",
        before={"dealer": dealer.badge if dealer else None},
        after={"dealer": None},
        occurred_at=now,
    )
    return terminal
