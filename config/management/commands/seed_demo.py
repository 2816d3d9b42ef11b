import datetime as dt
import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.management.base import CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from audit.context import AuditActor
from audit.management.base import PlainErrorsCommand
from blackjack.engine.wagers import SeatRequest, WagerRequest
from blackjack.services import apply_action, open_round, report_card, settle_round
from casino.models import Casino, GameKind, ShoeMode, StaffRole, Terminal
from casino.services.provisioning import ProvisionedTable, create_staff, provision_table
from casino.services.shoes import open_shoe
from casino.services.terminals import sign_in_dealer
from patrons.services import create_patron
from table_money.models import BuyInMethod, SlipKind
from table_money.services.accounting import approve_slip, open_table, record_buy_in, request_slip
from tournaments.services import create_tournament, file_tournament, new_display_key, register_entry

DEMO_CASINO = "Demo casino"
DEMO_PIT = "Pit 1"  # the floor supervisor and the two pit bosses run it
# A login for every staff role (DESIGN.md, Roles), as (username, role, pits run): two pit bosses,
# so that one approves the rule changes the other requests (maker-checker), and two count-team
# members, so that a soft count has its two. Each one's password is `<username>-demo-2026`.
DEMO_STAFF = (
    ("admin", StaffRole.ADMIN, ()),
    ("floor", StaffRole.FLOOR_SUPERVISOR, (DEMO_PIT,)),
    ("pitboss", StaffRole.PIT_BOSS, (DEMO_PIT,)),
    ("pitboss2", StaffRole.PIT_BOSS, (DEMO_PIT,)),
    ("compliance", StaffRole.COMPLIANCE, ()),
    ("cage", StaffRole.CAGE_CASHIER, ()),
    ("count1", StaffRole.COUNT_TEAM, ()),
    ("count2", StaffRole.COUNT_TEAM, ()),
    ("director", StaffRole.TOURNAMENT_DIRECTOR, ()),
)
CREDENTIALS_FILE = Path(settings.BASE_DIR) / ".local" / "demo-credentials.json"


def load_demo_credentials(path: Path = CREDENTIALS_FILE) -> dict[str, Any] | None:
    if path.exists():
        return dict(json.loads(path.read_text()))
    return None


class Command(PlainErrorsCommand):
    help = (
        "Load the demo casino once: a pit, two tie-bonus tables and a special-card points table with "
        "terminals and dealers, a login for every staff role (two pit bosses and a floor supervisor "
        "run the pit; compliance, the admin, a cage cashier, two count-team members and the tournament "
        "director), and a shift "
        "under way: the tables opened, buy-ins, a fill approved, a credit pending, a round played to "
        "its end on each blackjack table and a shoe open on every table, so the floor console shows "
        "live figures and each terminal deals its next round at once."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--credentials-file", type=Path, default=CREDENTIALS_FILE, help=f"default: {CREDENTIALS_FILE}"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        credentials_file: Path = options["credentials_file"]
        if credentials_file.is_dir():
            raise CommandError(f"--credentials-file {credentials_file} is a directory.")
        if Casino.objects.filter(name=DEMO_CASINO).exists():
            self.stdout.write("Demo data already loaded.")
            return
        with transaction.atomic():  # all of the demo or none of it
            self._seed(credentials_file, now=timezone.now())
        self.stdout.write(f"Demo data loaded; credentials in {credentials_file}.")

    def _seed(self, credentials_file: Path, *, now: dt.datetime) -> None:
        tables = [
            provision_table(name="BJ-01", decks=6, casino_name=DEMO_CASINO, pit_name=DEMO_PIT, now=now),
            provision_table(
                name="BJ-02", decks=8, h17=True, aggregate_limit_cents=5_000_000, surrender=True,
                casino_name=DEMO_CASINO, pit_name=DEMO_PIT, now=now,
            ),
            provision_table(
                name="SP-01", decks=6, game=GameKind.SPECIAL_POINTS, casino_name=DEMO_CASINO, pit_name=DEMO_PIT,
                now=now,
            ),
        ]  # fmt: skip
        staff = [
            create_staff(username=username, role=role, password=f"{username}-demo-2026", pits=pits, now=now)
            for username, role, pits in DEMO_STAFF
        ]
        pit_boss = next(made.user for made in staff if made.role == StaffRole.PIT_BOSS)
        play_a_demo_shift(tables, pit_boss=pit_boss, now=now)
        by_role = {made.role: made.user for made in staff}
        tournament = open_a_demo_tournament(
            director=by_role[StaffRole.TOURNAMENT_DIRECTOR], cashier=by_role[StaffRole.CAGE_CASHIER], now=now
        )
        credentials = {
            "tables": [
                {"table": t.table.name, "game": t.table.game, "terminal_token": t.terminal_token,
                 "dealer": {"badge": t.dealer.badge, "pin": t.dealer_pin}}
                for t in tables
            ],
            "staff": [{"username": s.user.username, "password": s.password, "role": s.role,
                       "token": s.token} for s in staff],
            "tournament": tournament,
        }  # fmt: skip
        credentials_file.parent.mkdir(parents=True, exist_ok=True)
        credentials_file.write_text(json.dumps(credentials, indent=2))
        credentials_file.chmod(0o600)


# Each table's opening inventory: $48,000 in $1,000, $500, $100, $25 and $5 chips.
DEMO_OPENER_CHIPS = {"100000": 20, "50000": 40, "10000": 50, "2500": 80, "500": 200}


def _terminal_actor(terminal: Terminal) -> AuditActor:
    dealer = terminal.dealer
    return AuditActor(
        kind="terminal",
        terminal_id=terminal.pk,
        terminal_name=terminal.name,
        dealer_id=dealer.pk if dealer else None,
        dealer_badge=dealer.badge if dealer else "",
    )


def _play_a_hand(terminal: Terminal, *, stake_cents: int, cards: tuple[str, ...], now: dt.datetime) -> None:
    """One seat's round to its end: `cards` dealt in order (the player's, the dealer's, the player's,
    the dealer's), the player stands, the round is settled."""
    actor = _terminal_actor(terminal)
    wagers = [WagerRequest(kind="primary", amount_cents=stake_cents)]
    opened = open_round(
        terminal=terminal, seats=[SeatRequest(seat=1, wagers=wagers)], players={}, actor=actor, now=now
    )
    round_id = opened.round.pk
    for card in cards:
        report_card(terminal=terminal, round_id=round_id, card=card, expected_seq=None, actor=actor, now=now)
    apply_action(terminal=terminal, round_id=round_id, seat=1, hand=0, action="stand", amount_cents=None,
                 expected_seq=None, actor=actor, now=now)  # fmt: skip
    settle_round(terminal=terminal, round_id=round_id, expected_seq=None, actor=actor, now=now)


def play_a_demo_shift(
    tables: list[ProvisionedTable], *, pit_boss: AbstractBaseUser, now: dt.datetime
) -> None:
    """A shift under way, through the services the terminals and the console call."""
    boss = AuditActor(kind="user", user_id=pit_boss.pk, username=pit_boss.get_username(), role="pit_boss")
    opener_cents = sum(int(denomination) * count for denomination, count in DEMO_OPENER_CHIPS.items())
    signed_in = []
    for made in tables:
        terminal = sign_in_dealer(
            terminal=made.terminal, badge=made.dealer.badge, pin=made.dealer_pin, actor=_terminal_actor(made.terminal),
            now=now,
        )  # fmt: skip
        open_table(table_id=made.table.pk, total_cents=opener_cents, chips=DEMO_OPENER_CHIPS, supervisor=pit_boss,
                   actor=boss, now=now)  # fmt: skip
        record_buy_in(terminal=terminal, seat=1, amount_cents=50_000, method=BuyInMethod.CASH, player="",
                      actor=_terminal_actor(terminal), now=now)  # fmt: skip
        signed_in.append(terminal)
    first, second = signed_in[0], signed_in[1]
    fill = request_slip(kind=SlipKind.FILL, table_id=first.table_id, amount_cents=200_000, chips={"10000": 20},
                        terminal=first, user=None, actor=_terminal_actor(first), now=now)  # fmt: skip
    approve_slip(kind=SlipKind.FILL, slip_id=fill.pk, user=pit_boss, actor=boss, now=now)
    request_slip(kind=SlipKind.CREDIT, table_id=second.table_id, amount_cents=100_000, chips={"50000": 2},
                 terminal=second, user=None, actor=_terminal_actor(second), now=now)  # fmt: skip
    # A shoe open on every table and no round left in play: each terminal's next call deals.
    for terminal in signed_in:
        open_shoe(
            table=terminal.table, mode=ShoeMode.REPORTED, decks=None, actor=_terminal_actor(terminal), now=now
        )
    # BJ-01: the player stands on 17, the dealer makes 18: the house wins $50.
    _play_a_hand(first, stake_cents=5_000, cards=("TS", "9H", "7C", "9D"), now=now)
    # BJ-02: the player stands on 20, the dealer stands on a hard 17: the player wins $25.
    _play_a_hand(second, stake_cents=2_500, cards=("TS", "7H", "QD", "TC"), now=now)


# The demo tournament: registration open for a quarter of an hour after the first start, then two
# heats of an hour each, so that a newcomer can take entries at the cage, then play them.
DEMO_TOURNAMENT_OPEN = dt.timedelta(minutes=15)
DEMO_HEAT_WINDOW_S = 3600
DEMO_ENTRANTS = (("Ana Ruiz", "cash"), ("Ben Okafor", "cash"), ("Chen Wei", "chips"))


def _user_actor(user: AbstractBaseUser, role: str) -> AuditActor:
    return AuditActor(kind="user", user_id=user.pk, username=user.get_username(), role=role)


def open_a_demo_tournament(
    *, director: AbstractBaseUser, cashier: AbstractBaseUser, now: dt.datetime
) -> dict[str, Any]:
    """A duplicate Blackjack Attack tournament, filed and registering, with three entries taken at
    the cage: what `make run` prints of it (the entries' tokens are shown only here)."""
    closes_at = now + DEMO_TOURNAMENT_OPEN
    heat_2 = closes_at + dt.timedelta(seconds=DEMO_HEAT_WINDOW_S)
    directing = _user_actor(director, StaffRole.TOURNAMENT_DIRECTOR)
    tournament = create_tournament(
        body={
            "name": "Demo Blackjack Attack", "game": "attack", "buy_in_cents": 2_000, "fee_cents": 500,
            "added_cents": 5_000, "guarantee_cents": 25_000, "max_entries": 16, "reentries": 1,
            "registration_closes_at": closes_at.isoformat(),
            "heats": [{"starts_at": closes_at.isoformat()}, {"starts_at": heat_2.isoformat()}],
            "start_window_s": DEMO_HEAT_WINDOW_S, "deal": "duplicate", "prizes_bp": [5000, 3000, 2000],
        },
        user=director, actor=directing, now=now,
    )  # fmt: skip
    file_tournament(
        tournament_id=tournament.pk, reference="DEMO-2026-001", filed_on=now.date(), actor=directing, now=now
    )
    entries = []
    for name, paid_with in DEMO_ENTRANTS:
        patron = create_patron(
            name=name, user=cashier, actor=_user_actor(cashier, StaffRole.CAGE_CASHIER), now=now
        )
        entry, token = register_entry(
            tournament_id=tournament.pk, patron_number=patron.number, paid_with=paid_with,
            nickname=name.split()[0], cashier=cashier, actor=_user_actor(cashier, StaffRole.CAGE_CASHIER),
            now=now,
        )  # fmt: skip
        entries.append({"entry": entry.number, "patron": patron.number, "token": token})
    board_key = new_display_key(tournament_id=tournament.pk, actor=directing, now=now)
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "board_key": board_key,
        "registration_closes_at": closes_at.isoformat(),
        "entries": entries,
    }
