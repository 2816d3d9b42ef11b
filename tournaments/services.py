"""The tournaments' use cases (RULES.md §4, API.md "Tournaments").

Each write locks the tournament's row first (`tournaments.locks`), asks the engine, writes its
rows and ledger transactions and records the audit event last, in the caller's transaction.

Ledger (signed cents, `casino.ledger`; the pool and revenue accounts are the tournament's own,
owner `tournament:<id>`; cash moves through the cage's cash, chips through its chip bank):

| movement | entries |
|---|---|
| entry | cage cash (or cage) +(buy-in + fee), pool -buy-in, revenue -fee |
| added money, overlay | revenue +amount, pool -amount: the house's revenue pays for them |
| prize | pool +prize, cage cash (or cage) -prize |
| refund (cancellation) | the entry's movement reversed; added money and overlay returned to revenue |

So the pool's balance is minus what it owes, and the revenue's is minus fees + added + overlay:
the revenue is fees - added money - overlay (RULES.md §4).

Title 31 (RULES.md §4, 31 CFR 1021.311 naming payments for tournaments): the cash of an entry
paid in cash (buy-in + fee) is cash in, a prize paid in cash and the refund of a cash entry are
cash out, each written by `table_money.services.title31.record_cage_cash` in the transaction that
moves the money (after the tournament's lock, then the patron's). Chips are not currency: an
entry paid, a prize paid or a refund made in chips is not. The Title 31 events (casino chain) are
written before the tournament's own event (its chain), always in that order.
"""

import datetime as dt
import secrets
from typing import Any

from django.conf import settings as django_settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from audit.context import AuditActor
from audit.services import record_event
from casino import ledger
from casino.engine.cards import parse_card
from casino.engine.shoe import commitment
from casino.models import AccountKind, LedgerTransaction, MovementKind, StaffRole
from kernel.errors import ConflictError, ForbiddenError, NotFoundError, ServiceError, given_reason
from kernel.keys import new_api_key
from patrons.services import resolve_patron
from skill_games import services as skill_games
from skill_games.registry import game_for
from skill_games.selectors import GameSnapshot, get_game_snapshot
from skill_games.services import TournamentSeating, shuffled_deck
from table_money.locks import lock_patron
from table_money.models import CashDirection
from table_money.services import title31
from tournaments import selectors
from tournaments.engine.posted_rules import posted_rules_text, rules_sha256
from tournaments.engine.prizes import overlay_cents, split_prizes
from tournaments.engine.settings import Deal, check_settings, heat_window_closes_at
from tournaments.games import all_terms, terms_for
from tournaments.locks import lock_entry, lock_heats, lock_prize, lock_tournament
from tournaments.models import (
    Cancellation,
    Entry,
    EntryGame,
    Heat,
    PaidWith,
    PostedRules,
    Prize,
    Results,
    Tournament,
    TournamentState,
    owner_key,
)

SALT_BYTES = 32
# Who approves results and cancellations, when they are not who proposed or requested them.
SECOND_PERSON_ROLES = (StaffRole.PIT_BOSS, StaffRole.COMPLIANCE)
REASON_MAX_LENGTH = 500
# Where a cage payment of each kind is counted: cash in the cage's cash, chips in its chip bank.
CAGE_ACCOUNT = {PaidWith.CASH: AccountKind.CAGE_CASH, PaidWith.CHIPS: AccountKind.CAGE}


def _record(
    tournament: Tournament,
    *,
    event_type: str,
    actor: AuditActor,
    at: dt.datetime,
    after: dict[str, Any],
    before: dict[str, Any] | None = None,
) -> None:
    record_event(
        event_type=f"tournaments.{event_type}",
        actor=actor,
        table_id=None,
        table_name="",
        subject_type="tournament",
        subject_id=str(tournament.pk),
        subject_label=f"tournament {tournament.pk} {tournament.name}",
        before=before,
        after=after,
        occurred_at=at,
        chain_owner=owner_key(tournament.pk),
    )


def _locked(tournament_id: int) -> Tournament:
    tournament = lock_tournament(tournament_id=tournament_id)
    if tournament is None:
        raise NotFoundError("not_found", f"No tournament {tournament_id}.")
    return tournament


def _in_state(tournament: Tournament, *states: TournamentState, code: str = "tournament_state") -> None:
    if tournament.state not in states:
        raise ConflictError(
            code,
            f"Tournament {tournament.pk} is {tournament.state}; this needs it "
            + " or ".join(str(state) for state in states)
            + ".",
        )


def _post(
    tournament: Tournament,
    *,
    kind: MovementKind,
    entries: list[tuple[AccountKind, int]],
    now: dt.datetime,
    memo: str,
) -> LedgerTransaction:
    return ledger.post(
        kind=kind, table=None, owner=owner_key(tournament.pk), entries=entries, now=now, memo=memo
    )


# --- set-up ------------------------------------------------------------------------------------


@transaction.atomic
def create_tournament(
    *, body: object, user: AbstractBaseUser, actor: AuditActor, now: dt.datetime
) -> Tournament:
    """A draft tournament from its settings, its posted rules (version 1) written from them and
    hashed into its audit events, and its heats, a duplicate heat's deck shuffled and committed."""
    settings = check_settings(body, terms=all_terms(), now=now)
    terms = terms_for(settings.game)
    tournament = Tournament.objects.create(
        name=settings.name,
        game=settings.game,
        settings=settings.to_json(),
        created_by_id=user.pk,
        created_at=now,
    )
    text = posted_rules_text(settings, terms)
    rules = PostedRules.objects.create(
        tournament=tournament, version=1, text=text, sha256=rules_sha256(text), created_at=now
    )
    heats = []
    for number, starts_at in enumerate(settings.heats, start=1):
        heat = Heat(
            tournament=tournament,
            number=number,
            starts_at=starts_at,
            window_closes_at=heat_window_closes_at(settings, number),
        )
        if settings.deal is Deal.DUPLICATE and not terms.shares_a_table:
            order, salt = shuffled_deck(), secrets.token_bytes(SALT_BYTES)
            heat.deck, heat.salt, heat.commitment = (
                [str(card) for card in order],
                salt.hex(),
                commitment(order, salt),
            )
        heats.append(heat)
    Heat.objects.bulk_create(heats)
    ledger.open_owned_accounts(owner=owner_key(tournament.pk))
    _record(
        tournament,
        event_type="tournament.created",
        actor=actor,
        at=now,
        after={
            "settings": settings.to_json(),
            "rules": {"version": rules.version, "sha256": rules.sha256},
            "heats": [
                {
                    "heat": heat.number,
                    "starts_at": heat.starts_at.isoformat(),
                    "commitment": heat.commitment or None,
                }
                for heat in heats
            ],
        },
    )
    return tournament


@transaction.atomic
def file_tournament(
    *, tournament_id: int, reference: str, filed_on: dt.date, actor: AuditActor, now: dt.datetime
) -> Tournament:
    """The regulator's filing recorded: registration opens."""
    reference = reference.strip()
    if not reference or len(reference) > 100:
        raise ServiceError(
            "invalid_filing", "The filing reference is 1 to 100 characters.", field="reference"
        )
    tournament = _locked(tournament_id)
    _in_state(tournament, TournamentState.DRAFT)
    if now >= selectors.settings_of(tournament).registration_closes_at:
        raise ConflictError(
            "registration_closed", "Registration would already be closed: file before it closes."
        )
    tournament.state, tournament.filing_reference, tournament.filed_on = (
        TournamentState.REGISTERING,
        reference,
        filed_on,
    )
    tournament.save(update_fields=["state", "filing_reference", "filed_on"])
    _record(
        tournament,
        event_type="tournament.filed",
        actor=actor,
        at=now,
        after={"reference": reference, "filed_on": filed_on.isoformat(), "state": tournament.state},
    )
    return tournament


# --- entries -----------------------------------------------------------------------------------


def _check_entry(tournament: Tournament, *, patron_number: int, now: dt.datetime) -> tuple[Any, int]:
    """The patron and their re-entry number, or the refusal, in API.md's order of concern."""
    settings = selectors.settings_of(tournament)
    if tournament.state != TournamentState.REGISTERING or now >= settings.registration_closes_at:
        raise ConflictError("registration_closed", f"Registration for tournament {tournament.pk} is closed.")
    patron = resolve_patron(patron_number)
    if patron is None:
        raise ServiceError("unknown_patron", "An entry names its patron by number.", field="patron")
    if patron.excluded:
        raise ConflictError(
            "patron_excluded", f"Patron {patron.number} is excluded and cannot enter.", field="patron"
        )
    taken = Entry.objects.filter(tournament=tournament, patron=patron).count()
    if taken > settings.reentries:
        raise ConflictError(
            "reentry_limit",
            f"Patron {patron.number} has {taken} entries; the limit is {settings.reentries + 1}.",
            field="patron",
        )
    if tournament.entries_taken >= settings.max_entries:
        raise ConflictError(
            "tournament_full", f"Tournament {tournament.pk} has its {settings.max_entries} entries."
        )
    return patron, taken


@transaction.atomic
def register_entry(
    *,
    tournament_id: int,
    patron_number: int,
    paid_with: str,
    nickname: str,
    cashier: AbstractBaseUser,
    actor: AuditActor,
    now: dt.datetime,
) -> tuple[Entry, str]:
    """An entry paid at the cage (buy-in to the pool, fee to revenue); its token, returned once.
    A nickname given then is checked as its player's would be (`checked_nickname`)."""
    nickname = checked_nickname(nickname) if nickname.strip() else ""
    tournament = _locked(tournament_id)
    patron, reentry = _check_entry(tournament, patron_number=patron_number, now=now)
    settings = selectors.settings_of(tournament)
    paid = PaidWith(paid_with)
    posted = None  # a free entry moves no money
    if settings.entry_cents:
        posted = _post(
            tournament,
            kind=MovementKind.ENTRY,
            entries=[
                (CAGE_ACCOUNT[paid], settings.entry_cents),
                (AccountKind.POOL, -settings.buy_in_cents),
                (AccountKind.REVENUE, -settings.fee_cents),
            ],
            now=now,
            memo=f"tournament {tournament.pk} entry {tournament.entries_taken + 1} by patron {patron.number}",
        )
    rules = PostedRules.objects.filter(tournament=tournament).order_by("-version").first()
    if rules is None:
        raise ConflictError("registration_closed", "The tournament has no posted rules to show.")
    key = new_api_key()
    tournament.entries_taken += 1
    tournament.save(update_fields=["entries_taken"])
    entry = Entry.objects.create(
        tournament=tournament,
        number=tournament.entries_taken,
        patron=patron,
        reentry=reentry,
        rules=rules,
        nickname=nickname,
        paid_with=paid,
        buy_in_cents=settings.buy_in_cents,
        fee_cents=settings.fee_cents,
        key_prefix=key.prefix,
        key_hash=key.key_hash,
        transaction=posted,
        cashier_id=cashier.pk,
        created_at=now,
    )
    if posted is not None and paid == PaidWith.CASH:
        title31.record_cage_cash(
            patron=patron,
            direction=CashDirection.CASH_IN,
            amount_cents=settings.entry_cents,
            description=f"Tournament {tournament.pk} entry {entry.number}",
            reference=f"{owner_key(tournament.pk)}:entry:{entry.number}",
            cashier=cashier,
            transaction=posted,
            actor=actor,
            now=now,
        )
    _record(
        tournament,
        event_type="entry.registered",
        actor=actor,
        at=now,
        after={
            "entry": entry.number,
            "patron": patron.number,
            "reentry": reentry,
            "paid_with": paid.value,
            "buy_in_cents": entry.buy_in_cents,
            "fee_cents": entry.fee_cents,
            "rules": {"version": rules.version, "sha256": rules.sha256},
            "transaction": None if posted is None else posted.pk,
        },
    )
    return entry, key.key


# --- registration closes, heats open and close (the beat's) -------------------------------------


@transaction.atomic
def advance_tournament(*, tournament_id: int, actor: AuditActor, now: dt.datetime) -> bool:
    """What the clock brings by `now`, in order: registration closed, heats opened, heats closed.
    Whether anything changed (a second run at the same moment finds it all done)."""
    tournament = _locked(tournament_id)
    registration_closed = _close_registration(tournament, actor=actor, now=now)
    opened = _open_heats(tournament, actor=actor, now=now)
    closed = _close_heats(tournament, actor=actor, now=now)
    return registration_closed or opened + closed > 0


def _close_registration(tournament: Tournament, *, actor: AuditActor, now: dt.datetime) -> bool:
    """Once registration's time is over: the added money and the overlay into the pool, and the
    tournament running."""
    settings = selectors.settings_of(tournament)
    if tournament.state != TournamentState.REGISTERING or now < settings.registration_closes_at:
        return False
    buy_ins = selectors.money_of(tournament).figures.buy_ins_cents  # as the ledger holds them
    overlay = overlay_cents(
        buy_ins_cents=buy_ins, added_cents=settings.added_cents, guarantee_cents=settings.guarantee_cents
    )
    for kind, cents in ((MovementKind.ADDED_MONEY, settings.added_cents), (MovementKind.OVERLAY, overlay)):
        if cents:
            _post(
                tournament,
                kind=kind,
                entries=[(AccountKind.REVENUE, cents), (AccountKind.POOL, -cents)],
                now=now,
                memo=f"tournament {tournament.pk} {kind}",
            )
    tournament.state, tournament.overlay_cents, tournament.registration_closed_at = (
        TournamentState.RUNNING,
        overlay,
        now,
    )
    tournament.save(update_fields=["state", "overlay_cents", "registration_closed_at"])
    _record(
        tournament,
        event_type="registration.closed",
        actor=actor,
        at=now,
        after={
            "entries": tournament.entries_taken,
            "buy_ins_cents": buy_ins,
            "added_cents": settings.added_cents,
            "overlay_cents": overlay,
        },
    )
    return True


def _seat_the_table(tournament: Tournament, heat: Heat, *, actor: AuditActor, now: dt.datetime) -> None:
    """A table game: every entry seated in entry order at one game, its match starting now."""
    entries = list(Entry.objects.filter(tournament=tournament).order_by("number"))
    settings = selectors.settings_of(tournament)
    adapter = game_for(tournament.game).adapter
    game_settings = adapter.tournament_settings(settings.settings, players=len(entries))
    snapshot = skill_games.create_game(
        kind=tournament.game,
        body=game_settings,
        user_id=None,
        actor=actor,
        now=now,
        tournament=TournamentSeating(
            tournament_id=tournament.pk,
            heat=heat.number,
            entries=tuple(entry.number for entry in entries),
            reveal_held=False,
            seat_keys=tuple((entry.key_prefix, entry.key_hash) for entry in entries),
        ),
    )
    EntryGame.objects.bulk_create(
        EntryGame(entry=entry, heat=heat, game=snapshot.game, seat=seat, created_at=now)
        for seat, entry in enumerate(entries, start=1)
    )


def _open_heats(tournament: Tournament, *, actor: AuditActor, now: dt.datetime) -> int:
    """Every heat whose start has come opened (once): its commitment in the audit trail, and a
    table game's one table seated. How many it opened."""
    if tournament.state != TournamentState.RUNNING:
        return 0
    opened = 0
    terms = terms_for(tournament.game)
    shares_a_table = terms.shares_a_table
    if terms.entries_short(tournament.entries_taken):
        return 0  # a table that cannot be dealt: `selectors.why_not_played` tells the director
    for heat in lock_heats(tournament_id=tournament.pk):
        if heat.opened_at is not None or heat.starts_at > now:
            continue
        if shares_a_table:
            _seat_the_table(tournament, heat, actor=actor, now=now)
        heat.opened_at = now
        heat.save(update_fields=["opened_at"])
        _record(
            tournament,
            event_type="heat.opened",
            actor=actor,
            at=now,
            after={"heat": heat.number, "commitment": heat.commitment or None},
        )
        opened += 1
    return opened


def _close_heats(tournament: Tournament, *, actor: AuditActor, now: dt.datetime) -> int:
    """Every heat whose start window is over and whose games have all finished closed (once): a
    duplicate heat's deck order and salt revealed, in the audit trail and on each of its games;
    the tournament's play done once its last heat closes. How many it closed."""
    if tournament.state != TournamentState.RUNNING:
        return 0
    closed = 0
    heats = lock_heats(tournament_id=tournament.pk)
    for heat in heats:
        if heat.closed_at is not None or heat.opened_at is None or heat.window_closes_at > now:
            continue
        if selectors.unfinished_games(heat_id=heat.pk):
            continue
        for game_id in (
            EntryGame.objects.filter(heat=heat)
            .values_list("game_id", flat=True)
            .distinct()
            .order_by("game_id")
        ):
            skill_games.reveal_held_game(game_id=game_id, actor=actor, now=now)
        heat.closed_at = now
        heat.save(update_fields=["closed_at"])
        reveal = {"order": heat.deck, "salt": heat.salt, "commitment": heat.commitment} if heat.deck else None
        _record(
            tournament,
            event_type="heat.closed",
            actor=actor,
            at=now,
            after={"heat": heat.number, "reveal": reveal},
        )
        closed += 1
    if all(heat.closed_at is not None for heat in heats):
        tournament.state = TournamentState.PLAYING_DONE
        tournament.save(update_fields=["state"])
        _record(
            tournament,
            event_type="tournament.playing_done",
            actor=actor,
            at=now,
            after={"state": tournament.state},
        )
    return closed


# --- the board display and nicknames ------------------------------------------------------------


@transaction.atomic
def new_display_key(*, tournament_id: int, actor: AuditActor, now: dt.datetime) -> str:
    """A new key for the tournament's big-screen board, returned once (the director shows it to
    the TV); it replaces the earlier one, whose board stops at its next read."""
    tournament = _locked(tournament_id)
    key = new_api_key()
    before = {"prefix": tournament.display_key_prefix} if tournament.display_key_prefix else None
    tournament.display_key_prefix, tournament.display_key_hash = key.prefix, key.key_hash
    tournament.save(update_fields=["display_key_prefix", "display_key_hash"])
    _record(
        tournament,
        event_type="display_key.issued",
        actor=actor,
        at=now,
        before=before,
        after={"prefix": key.prefix},
    )
    return key.key


NICKNAME_MAX_LENGTH = 20
NICKNAME_PUNCTUATION = frozenset(" .,'!?&()-_#:")
# Chosen while the entry may still play: the board shows it from then on.
NICKNAME_STATES = (TournamentState.REGISTERING, TournamentState.RUNNING)


def checked_nickname(nickname: object) -> str:
    """A nickname as the board shows it: 1 to 20 letters, digits, spaces and basic punctuation,
    spaces trimmed and runs of them made one (no tab, newline or other control character);
    `invalid_nickname` otherwise."""
    given = nickname if isinstance(nickname, str) and nickname.isprintable() else ""
    text = " ".join(part for part in given.split(" ") if part)
    allowed = all(char.isalnum() or char in NICKNAME_PUNCTUATION for char in text)
    if not text or len(text) > NICKNAME_MAX_LENGTH or not allowed:
        raise ServiceError(
            "invalid_nickname",
            f"A nickname is 1 to {NICKNAME_MAX_LENGTH} letters, digits, spaces and . , ' ! ? & ( ) - _ # :",
            field="nickname",
        )
    return text


@transaction.atomic
def set_nickname(*, entry_id: int, nickname: object, actor: AuditActor, now: dt.datetime) -> Entry:
    """The name the board shows for the entry, chosen by its player (never the patron's name)."""
    text = checked_nickname(nickname)
    found = Entry.objects.filter(pk=entry_id).values_list("tournament_id", flat=True).first()
    if found is None:
        raise NotFoundError("not_found", f"No entry {entry_id}.")
    tournament = _locked(found)
    _in_state(tournament, *NICKNAME_STATES)
    entry = lock_entry(entry_id=entry_id)
    if entry is None:
        raise NotFoundError("not_found", f"No entry {entry_id}.")
    before = entry.nickname
    if before == text:
        return entry
    entry.nickname = text
    entry.save(update_fields=["nickname"])
    _record(
        tournament,
        event_type="entry.nickname_set",
        actor=actor,
        at=now,
        before={"entry": entry.number, "nickname": before},
        after={"entry": entry.number, "nickname": text},
    )
    return entry


# --- a heat's game -----------------------------------------------------------------------------


def _heat_now(tournament: Tournament, *, now: dt.datetime) -> Heat:
    if tournament.state in (TournamentState.DRAFT, TournamentState.REGISTERING):
        raise ConflictError("heat_not_started", "Play has not started: registration is still open.")
    if tournament.state != TournamentState.RUNNING:
        raise ConflictError("heat_closed", f"Play is over: tournament {tournament.pk} is {tournament.state}.")
    heat = selectors.current_heat(tournament_id=tournament.pk, now=now)
    if heat is None or (heat.opened_at is None and terms_for(tournament.game).shares_a_table):
        raise ConflictError("heat_not_started", "The next heat has not started yet.")
    return heat


@transaction.atomic
def start_heat_game(
    *, tournament_id: int, entry_id: int, actor: AuditActor, now: dt.datetime
) -> tuple[GameSnapshot, int]:
    """The entry's game of the current heat and the entry's seat: a solitaire game dealt now, its
    seat's token shown once (a duplicate heat's game from the heat's committed deck, its reveal
    held until the heat closes); or the table it was seated at when the match started, whose seat
    takes the entry's own token."""
    tournament = lock_tournament(tournament_id=tournament_id)
    entry = lock_entry(entry_id=entry_id)
    if tournament is None or entry is None or entry.tournament_id != tournament.pk:
        raise NotFoundError("not_found", f"No such entry of tournament {tournament_id}.")
    heat = _heat_now(tournament, now=now)
    played = EntryGame.objects.filter(entry=entry, heat=heat).first()
    if terms_for(tournament.game).shares_a_table:
        if played is None:
            raise ConflictError("heat_closed", "The table was seated without this entry.")
        snapshot = get_game_snapshot(game_id=played.game_id, now=now)
        if snapshot is None or snapshot.game.state != "playing":
            raise ConflictError("already_played", "The entry's match is over.")
        return snapshot, played.seat
    if played is not None:
        raise ConflictError("already_played", f"Entry {entry.number} has played heat {heat.number}.")
    if now >= heat.window_closes_at:
        raise ConflictError("heat_closed", f"Heat {heat.number}'s start window has closed.")
    settings = selectors.settings_of(tournament)
    decks = [heat.deck] if heat.deck else []
    snapshot = skill_games.create_game(
        kind=tournament.game,
        body=game_for(tournament.game).adapter.tournament_settings(settings.settings, players=None),
        user_id=None,
        actor=actor,
        now=now,
        decks=[[parse_card(card) for card in deck] for deck in decks],
        tournament=TournamentSeating(
            tournament_id=tournament.pk,
            heat=heat.number,
            entries=(entry.number,),
            reveal_held=bool(heat.deck),
        ),
    )
    EntryGame.objects.create(entry=entry, heat=heat, game=snapshot.game, seat=1, created_at=now)
    _record(
        tournament,
        event_type="heat.game_started",
        actor=actor,
        at=now,
        after={"heat": heat.number, "entry": entry.number, "game": snapshot.game.pk},
    )
    return snapshot, 1


def _check_second_person(*, first_id: int, user: AbstractBaseUser, role: str | None, code: str) -> None:
    """Maker-checker: the approver is not who proposed or requested (`code`), checked before the
    role, then is a pit boss or compliance."""
    if first_id == user.pk:
        raise ForbiddenError(
            code, "The approval is by a second person, not by whoever proposed or requested it."
        )
    if role not in SECOND_PERSON_ROLES:
        raise ForbiddenError("role_not_allowed", "Only a pit boss or compliance may approve.")


# --- results and prizes ------------------------------------------------------------------------


@transaction.atomic
def propose_results(
    *, tournament_id: int, user: AbstractBaseUser, actor: AuditActor, now: dt.datetime
) -> Results:
    """The standings and prizes frozen, once every game is finished (play done)."""
    tournament = _locked(tournament_id)
    _in_state(tournament, TournamentState.PLAYING_DONE)
    if Results.objects.filter(tournament=tournament).exists():
        raise ConflictError("results_already_proposed", f"Tournament {tournament.pk}'s results are proposed.")
    money = selectors.money_of(tournament)
    pool = money.figures.pool_cents
    ranked = selectors.standings(tournament, now=now)
    prizes = split_prizes(
        pool_cents=pool, prizes_bp=selectors.settings_of(tournament).prizes_bp, standings=ranked
    )
    rows = [
        {"place": s.place, "entry": s.entry, "score": s.score, "prize_cents": prizes.get(s.entry, 0)}
        for s in ranked
    ]
    results = Results.objects.create(
        tournament=tournament, standings=rows, pool_cents=pool, proposed_by_id=user.pk, proposed_at=now
    )
    entries = {entry.number: entry for entry in Entry.objects.filter(tournament=tournament)}
    Prize.objects.bulk_create(
        Prize(
            tournament=tournament,
            entry=entries[row["entry"]],
            place=row["place"],
            amount_cents=row["prize_cents"],
        )
        for row in rows
        if row["prize_cents"] > 0
    )
    _record(
        tournament,
        event_type="results.proposed",
        actor=actor,
        at=now,
        after={"pool_cents": pool, "standings": rows},
    )
    return results


@transaction.atomic
def approve_results(
    *, tournament_id: int, user: AbstractBaseUser, role: str | None, actor: AuditActor, now: dt.datetime
) -> Results:
    """A second person's approval: never the proposer (checked before the role)."""
    tournament = _locked(tournament_id)
    results = Results.objects.select_for_update(of=("self",)).filter(tournament=tournament).first()
    if results is None:
        raise ConflictError(
            "results_not_proposed", f"Tournament {tournament.pk}'s results are not proposed yet."
        )
    _check_second_person(first_id=results.proposed_by_id, user=user, role=role, code="approver_is_proposer")
    _in_state(tournament, TournamentState.PLAYING_DONE)
    results.approved_by_id, results.approved_at = user.pk, now
    results.save(update_fields=["approved_by", "approved_at"])
    paid_out = not Prize.objects.filter(tournament=tournament).exists()
    tournament.state = TournamentState.PAID if paid_out else TournamentState.RESULTS_APPROVED
    tournament.save(update_fields=["state"])
    _record(tournament, event_type="results.approved", actor=actor, at=now, after={"state": tournament.state})
    return results


@transaction.atomic
def pay_prize(
    *, prize_id: int, paid_with: str, cashier: AbstractBaseUser, actor: AuditActor, now: dt.datetime
) -> Prize:
    """A prize paid at the cage, once: the pool to the patron. A prize at or over the reporting
    threshold only to an identified patron."""
    found = Prize.objects.filter(pk=prize_id).values_list("tournament_id", flat=True).first()
    if found is None:
        raise NotFoundError("not_found", f"No prize {prize_id}.")
    tournament = _locked(found)
    prize = lock_prize(prize_id=prize_id)
    if prize is None:
        raise NotFoundError("not_found", f"No prize {prize_id}.")
    if prize.paid_at is not None:
        raise ConflictError(
            "prize_already_paid", f"Prize {prize.pk} was paid at {prize.paid_at.isoformat()}."
        )
    _in_state(tournament, TournamentState.RESULTS_APPROVED, code="results_not_approved")
    entry = Entry.objects.select_related("patron").get(pk=prize.entry_id)
    if (
        prize.amount_cents >= django_settings.CASINO_PRIZE_REPORTING_THRESHOLD_CENTS
        and not entry.patron.is_identified
    ):
        raise ConflictError(
            "identification_required",
            f"A prize of {prize.amount_cents} cents is paid only to an identified patron: identify patron {entry.patron.number} first.",
        )
    paid = PaidWith(paid_with)
    if paid == PaidWith.CASH:
        title31.check_cage_cash_out(patron=entry.patron, amount_cents=prize.amount_cents, now=now)
    posted = _post(
        tournament,
        kind=MovementKind.PRIZE,
        entries=[(AccountKind.POOL, prize.amount_cents), (CAGE_ACCOUNT[paid], -prize.amount_cents)],
        now=now,
        memo=f"tournament {tournament.pk} prize of entry {entry.number} to patron {entry.patron.number}",
    )
    prize.paid_with, prize.paid_at, prize.paid_by_id, prize.transaction = paid, now, cashier.pk, posted
    prize.save(update_fields=["paid_with", "paid_at", "paid_by", "transaction"])
    if paid == PaidWith.CASH:
        title31.record_cage_cash(
            patron=entry.patron,
            direction=CashDirection.CASH_OUT,
            amount_cents=prize.amount_cents,
            description=f"Tournament {tournament.pk} prize of entry {entry.number}",
            reference=f"{owner_key(tournament.pk)}:prize:{entry.number}",
            cashier=cashier,
            transaction=posted,
            actor=actor,
            now=now,
        )
    _record(
        tournament,
        event_type="prize.paid",
        actor=actor,
        at=now,
        after={
            "prize": prize.pk,
            "entry": entry.number,
            "patron": entry.patron.number,
            "amount_cents": prize.amount_cents,
            "paid_with": paid.value,
            "transaction": posted.pk,
        },
    )
    if not Prize.objects.filter(tournament=tournament, paid_at__isnull=True).exists():
        tournament.state = TournamentState.PAID
        tournament.save(update_fields=["state"])
        _record(
            tournament, event_type="tournament.paid", actor=actor, at=now, after={"state": tournament.state}
        )
    return prize


# --- cancellation ------------------------------------------------------------------------------

CANCELLABLE = (
    TournamentState.DRAFT,
    TournamentState.REGISTERING,
    TournamentState.RUNNING,
    TournamentState.PLAYING_DONE,
)


@transaction.atomic
def request_cancellation(
    *, tournament_id: int, reason: str, user: AbstractBaseUser, actor: AuditActor, now: dt.datetime
) -> Cancellation:
    reason = given_reason(reason, max_length=REASON_MAX_LENGTH)
    tournament = _locked(tournament_id)
    _in_state(tournament, *CANCELLABLE)
    if Results.objects.filter(tournament=tournament, approved_at__isnull=False).exists():
        raise ConflictError(
            "tournament_state", "Results are approved: the tournament can no longer be cancelled."
        )
    if Cancellation.objects.filter(tournament=tournament).exists():
        raise ConflictError(
            "cancellation_already_requested",
            f"Tournament {tournament.pk}'s cancellation is already requested.",
        )
    cancellation = Cancellation.objects.create(
        tournament=tournament, reason=reason, requested_by_id=user.pk, requested_at=now
    )
    _record(tournament, event_type="cancellation.requested", actor=actor, at=now, after={"reason": reason})
    return cancellation


@transaction.atomic
def approve_cancellation(
    *, tournament_id: int, user: AbstractBaseUser, role: str | None, actor: AuditActor, now: dt.datetime
) -> Cancellation:
    """A second person approves: every buy-in and fee refunded to its patron (as it was paid),
    the added money and overlay back to revenue; the tournament cancelled.

    A cash entry's refund is cash out for Title 31: the reading of 31 CFR 1021.311 the service
    follows counts every payment in currency by the casino to a patron, and returning cash paid
    is one (the safe reading, as for the entry itself), written with the approver as the
    employee. It is never stopped for identification: the patron's own cash goes back."""
    tournament = _locked(tournament_id)
    cancellation = Cancellation.objects.select_for_update(of=("self",)).filter(tournament=tournament).first()
    if cancellation is None:
        raise ConflictError(
            "cancellation_not_requested", f"Tournament {tournament.pk}'s cancellation is not requested."
        )
    _check_second_person(
        first_id=cancellation.requested_by_id, user=user, role=role, code="approver_is_requester"
    )
    _in_state(tournament, *CANCELLABLE)
    refunds = []
    paid_entries = Entry.objects.filter(tournament=tournament, refund__isnull=True, transaction__isnull=False)
    # The patrons of the cash refunds locked in one order (their ids) before any Title 31 record.
    for patron_id in sorted(
        set(paid_entries.filter(paid_with=PaidWith.CASH).values_list("patron_id", flat=True))
    ):
        lock_patron(patron_id=patron_id)
    for entry in paid_entries.order_by("pk").select_for_update(of=("self",)).select_related("patron"):
        entry.refund = _post(
            tournament,
            kind=MovementKind.REFUND,
            entries=[
                (AccountKind.POOL, entry.buy_in_cents),
                (AccountKind.REVENUE, entry.fee_cents),
                (CAGE_ACCOUNT[PaidWith(entry.paid_with)], -(entry.buy_in_cents + entry.fee_cents)),
            ],
            now=now,
            memo=f"tournament {tournament.pk} refund of entry {entry.number}",
        )
        entry.save(update_fields=["refund"])
        if entry.paid_with == PaidWith.CASH:
            title31.record_cage_cash(
                patron=entry.patron,
                direction=CashDirection.CASH_OUT,
                amount_cents=entry.buy_in_cents + entry.fee_cents,
                description=f"Tournament {tournament.pk} refund of entry {entry.number}",
                reference=f"{owner_key(tournament.pk)}:refund:{entry.number}",
                cashier=user,
                transaction=entry.refund,
                actor=actor,
                now=now,
            )
        refunds.append(
            {
                "entry": entry.number,
                "cents": entry.buy_in_cents + entry.fee_cents,
                "paid_with": entry.paid_with,
            }
        )
    house = selectors.money_of(tournament).pool_balance_cents
    if house:
        _post(
            tournament,
            kind=MovementKind.REFUND,
            entries=[(AccountKind.POOL, house), (AccountKind.REVENUE, -house)],
            now=now,
            memo=f"tournament {tournament.pk} house money back",
        )
    cancellation.approved_by_id, cancellation.approved_at = user.pk, now
    cancellation.save(update_fields=["approved_by", "approved_at"])
    before = tournament.state
    tournament.state = TournamentState.CANCELLED
    tournament.save(update_fields=["state"])
    _record(
        tournament,
        event_type="tournament.cancelled",
        actor=actor,
        at=now,
        before={"state": before},
        after={"state": tournament.state, "refunds": refunds, "house_cents": house},
    )
    return cancellation
