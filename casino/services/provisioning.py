"""Creating tables with their terminal and dealer, and staff accounts, without the admin."""

import datetime as dt
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import transaction

from audit.context import AuditActor
from audit.services import record_event
from casino import ledger
from casino.engine.shoe import check_decks
from casino.engine.wager_kinds import WagerKind
from casino.games import game_for
from casino.models import (
    Casino,
    Dealer,
    GameKind,
    Pit,
    StaffProfile,
    StaffRole,
    StaffToken,
    Table,
    TableLimit,
    Terminal,
)
from casino.side_bets import side_bet_for
from kernel.errors import ConflictError, ServiceError
from kernel.keys import hash_pin, new_api_key, new_pin

# Default stake limits of a new table, in cents: $5-$1,000 primary, $1-$500 per side wager.
PRIMARY_LIMITS = (500, 100_000)
SIDE_WAGER_LIMITS = (100, 50_000)


def default_limits(*, game: str) -> dict[str, tuple[int, int]]:
    """The primary's, then each wager kind of the side bet the game's tables offer."""
    adapter = side_bet_for(game)
    side_kinds = adapter.side_bet.kinds if adapter is not None else ()
    return {WagerKind.PRIMARY.value: PRIMARY_LIMITS, **{kind.value: SIDE_WAGER_LIMITS for kind in side_kinds}}


SYSTEM = AuditActor(kind="system", username="provisioning")


@dataclass(frozen=True)
class ProvisionedTable:
    table: Table
    terminal: Terminal
    terminal_token: str
    dealer: Dealer
    dealer_pin: str


@dataclass(frozen=True)
class ProvisionedStaff:
    user: AbstractUser
    role: str
    password: str
    token: str
    pits: tuple[Pit, ...] = ()


def _ratio(game: str, text: str) -> tuple[int, int]:
    """The table's Blackjack payout as its columns hold it; the game decides which it takes."""
    rules = game_for(game)
    if "blackjack_pays" not in rules.rule_fields:
        return 3, 2  # the columns' default: the game pays no Blackjack
    rules.check_rule("blackjack_pays", text)
    num, den = text.split(":")
    return int(num), int(den)


@transaction.atomic
def provision_table(
    *,
    name: str,
    decks: int,
    h17: bool = False,
    blackjack_pays: str = "3:2",
    aggregate_limit_cents: int | None = None,
    surrender: bool = False,
    pit_name: str = "Main pit",
    casino_name: str = "Main casino",
    dealer_name: str = "",
    game: str = GameKind.TIE_BONUS,
    now: dt.datetime,
) -> ProvisionedTable:
    check_decks(decks)
    if game not in GameKind.values:
        raise ServiceError("invalid_game", f"A table runs one of {', '.join(GameKind.values)}.", field="game")
    num, den = _ratio(game, blackjack_pays)
    if aggregate_limit_cents is not None and aggregate_limit_cents <= 0:
        raise ServiceError("invalid_aggregate_limit", "The aggregate limit is a positive number of cents.")
    if Table.objects.filter(name=name).exists():
        raise ConflictError("table_exists", f"A table named {name!r} already exists.")
    casino, _ = Casino.objects.get_or_create(name=casino_name)
    pit, _ = Pit.objects.get_or_create(casino=casino, name=pit_name)
    table = Table.objects.create(
        pit=pit,
        name=name,
        game=game,
        decks=decks,
        dealer_hits_soft_17=h17,
        blackjack_pays_num=num,
        blackjack_pays_den=den,
        surrender=surrender,
        aggregate_limit_cents=aggregate_limit_cents,
    )
    TableLimit.objects.bulk_create(
        TableLimit(table=table, kind=kind, min_cents=low, max_cents=high)
        for kind, (low, high) in default_limits(game=table.game).items()
    )
    ledger.open_table_accounts(table=table)
    side_bet = side_bet_for(table.game)
    if side_bet is not None:
        side_bet.price_table_rules(table)  # its paytable report, queued on commit when missing
    key = new_api_key()
    terminal = Terminal.objects.create(
        table=table, name=f"{name}-T1", key_prefix=key.prefix, key_hash=key.key_hash
    )
    pin = new_pin()
    badge = f"D{secrets.randbelow(10**6):06d}"
    while Dealer.objects.filter(badge=badge).exists():
        badge = f"D{secrets.randbelow(10**6):06d}"
    dealer = Dealer.objects.create(badge=badge, name=dealer_name or f"Dealer {badge}", pin_hash=hash_pin(pin))
    record_event(
        event_type="casino.table.provisioned",
        actor=SYSTEM,
        table_id=table.pk,
        table_name=table.name,
        subject_type="table",
        subject_id=str(table.pk),
        subject_label=name,
        after={"game": game, "decks": decks, "h17": h17, "blackjack_pays": blackjack_pays, "surrender": surrender,
               "aggregate_limit_cents": aggregate_limit_cents, "terminal": terminal.name, "dealer": badge},
        occurred_at=now,
    )  # fmt: skip
    return ProvisionedTable(
        table=table, terminal=terminal, terminal_token=key.key, dealer=dealer, dealer_pin=pin
    )


# The roles that run pits (DESIGN.md, Roles): the others see every pit and are assigned none.
PIT_ROLES = (StaffRole.FLOOR_SUPERVISOR, StaffRole.PIT_BOSS)
# The roles that are staff of the admin site (casino.admin_site): admins configure there and
# compliance reads the audit trail and decides paytables there. Every other role works on the
# floor console, which scopes it by pit, and gets no `is_staff`.
ADMIN_SITE_ROLES = (StaffRole.ADMIN, StaffRole.COMPLIANCE)


def site_flags(role: str) -> dict[str, bool]:
    """A staff user's Django flags for their role: staff of the admin site for the roles that use
    it, superuser for the admin alone."""
    return {"is_staff": role in ADMIN_SITE_ROLES, "is_superuser": role == StaffRole.ADMIN}


def _pits_named(names: Sequence[str], *, role: str) -> list[Pit]:
    """The pits named, each existing in exactly one casino; any other name is refused."""
    if not names:
        return []
    if role not in PIT_ROLES:
        raise ServiceError(
            "pits_not_for_role",
            f"Only floor supervisors and pit bosses run pits; the {role} role sees every pit.",
            field="pits",
        )
    pits: list[Pit] = []
    for name in dict.fromkeys(names):
        found = list(Pit.objects.select_related("casino").filter(name=name)[:2])
        if not found:
            known = ", ".join(repr(n) for n in Pit.objects.order_by("name").values_list("name", flat=True))
            raise ServiceError(
                "unknown_pit", f"No pit named {name!r} (pits: {known or 'none'}).", field="pits"
            )
        if len(found) > 1:
            raise ServiceError(
                "ambiguous_pit",
                f"More than one casino has a pit named {name!r}: assign it in the admin site (staff profiles).",
                field="pits",
            )
        pits.append(found[0])
    return pits


@transaction.atomic
def create_staff(
    *, username: str, role: str, password: str | None = None, pits: Sequence[str] = (), now: dt.datetime
) -> ProvisionedStaff:
    """A staff account with its role, API token and, for a floor supervisor or pit boss, the pits
    (by name) they run."""
    if role not in StaffRole.values:
        raise ServiceError(
            "invalid_role", f"Role must be one of {', '.join(StaffRole.values)}.", field="role"
        )
    assigned = _pits_named(pits, role=role)
    user_model = get_user_model()
    if user_model.objects.filter(username=username).exists():
        raise ConflictError("user_exists", f"A user named {username!r} already exists.")
    password = password or secrets.token_urlsafe(16)
    flags = site_flags(role)
    user = user_model.objects.create_user(
        username=username, password=password, is_staff=flags["is_staff"], is_superuser=flags["is_superuser"]
    )
    profile = StaffProfile.objects.create(user=user, role=role)
    profile.pits.set(assigned)
    key = new_api_key()
    StaffToken.objects.create(user=user, key_prefix=key.prefix, key_hash=key.key_hash)
    record_event(
        event_type="casino.staff.created",
        actor=SYSTEM,
        table_id=None,
        table_name="",
        subject_type="user",
        subject_id=str(user.pk),
        subject_label=username,
        after={"role": role, **({"pits": [pit.name for pit in assigned]} if assigned else {})},
        occurred_at=now,
    )
    return ProvisionedStaff(user=user, role=role, password=password, token=key.key, pits=tuple(assigned))
