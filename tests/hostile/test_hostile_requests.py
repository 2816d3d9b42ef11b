"""Every POST endpoint against the hostile corpus (tests/hostile/corpus.py): no answer is a 5xx,
every 4xx is problem+json with a snake_case code, and a refused request changes nothing.

Each endpoint gets one database set-up (the state its well-formed request needs: a dealer signed
in, an open table, a shoe, a round waiting for a card or an action, a pending slip or paytable),
and then all its cases in a row. What "nothing changed" means is a fingerprint of the database taken
in one statement (rows and highest id of every table, the game state columns, the head of the
audit trail without the security events that refusals are meant to write) before and after
each request. An accepted variation (an extra field is ignored) may change the state; the next
case then starts from the new fingerprint.
"""

import datetime as dt
import json
import logging
import re
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db import connection
from django.urls import get_resolver
from django.utils import timezone
from rest_framework.test import APIClient

from bonus_tie import services as paytables
from bonus_tie.engine.kinds import BONUS_KINDS
from casino.models import GameKind, Table
from casino.services.provisioning import ProvisionedStaff
from kernel.gaming_day import gaming_day_and_shift, shift_bounds
from tests.bonus_tie.conftest import Staff, compute
from tests.hostile.corpus import Case, cases_for
from tests.support.api import TableActors, post
from tests.support.gaming_day import day_shift_clock
from tournaments import services as tournaments
from tournaments.models import Prize

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"
SNAKE_CASE = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*")
BANK = {"100000": 5, "10000": 50}
LOW_PAYS = {kind.value: 1 for kind in BONUS_KINDS}
FIELD_CASES = 30  # sampled single-field variations per endpoint, plus a quarter as many multi-field ones
MIN_CASES = 2_000

# --- the fingerprint -----------------------------------------------------------------------------

_STATE = {
    "rounds": "(SELECT coalesce(sum(seq), 0) || string_agg(state, ',' ORDER BY id) FROM casino_round)",
    "open shoes": "(SELECT count(*) FROM casino_shoe WHERE closed_at IS NULL)",
    "slips": "(SELECT string_agg(status, ',' ORDER BY id) FROM casino_chipslip)",
    "dealers signed in": "(SELECT string_agg(coalesce(dealer_id::text, '-'), ',' ORDER BY id) FROM casino_terminal)",
    "paytables": "(SELECT string_agg(status, ',' ORDER BY id) FROM bonus_tie_paytableversion)",
    "tables": "(SELECT string_agg(game || is_active::text, ',' ORDER BY id) FROM casino_table)",
    # Refusals write security events by design; everything else the trail holds must stay put.
    "audit events": "(SELECT count(*) || '/' || max(id) FROM audit_auditevent WHERE event_type NOT LIKE 'security.%')",
    "audit head": "(SELECT hash FROM audit_auditevent WHERE event_type NOT LIKE 'security.%' ORDER BY id DESC LIMIT 1)",
    "skill games": "(SELECT coalesce(sum(seq), 0) || string_agg(state, ',' ORDER BY id) FROM skill_games_game)",
    "tournaments": "(SELECT string_agg(state || entries_taken, ',' ORDER BY id) FROM tournaments_tournament)",
    "patrons excluded": "(SELECT count(*) FROM casino_patron WHERE excluded)",
    "prizes paid": "(SELECT count(*) FROM tournaments_prize WHERE paid_at IS NOT NULL)",
}

# Left out: configuration rows no request of the corpus writes (their history is in), and the
# tally of refused requests, which a refusal is meant to count.
_LEFT_OUT = {
    "casino_casino",
    "casino_pit",
    "casino_table",
    "casino_tablelimit",
    "casino_account",
    "audit_auditevent",  # in `_STATE`, without the security events
    "audit_refusaltally",
}


@dataclass(frozen=True)
class Fingerprint:
    """What a refused request must leave as it was, read in one statement."""

    labels: list[str]
    sql: str

    @classmethod
    def of_database(cls) -> "Fingerprint":
        quote = connection.ops.quote_name
        parts: dict[str, str] = {}
        for label in (
            "casino",
            "bonus_tie",
            "specials",
            "skill_games",
            "tournaments",
            "kernel",
            "history",
            "audit",
        ):
            for model in apps.get_app_config(label).get_models():
                db_table, pk = model._meta.db_table, model._meta.pk.column
                if not model._meta.proxy and db_table not in _LEFT_OUT:
                    # Names from the models' metadata, quoted: nothing here comes from a request.
                    parts[db_table] = (
                        f"(SELECT count(*) || '/' || coalesce(max({quote(pk)}), 0) FROM {quote(db_table)})"  # noqa: S608
                    )
        parts.update(_STATE)
        return cls(labels=list(parts), sql="SELECT " + ", ".join(parts.values()))

    def read(self) -> tuple[Any, ...]:
        with connection.cursor() as cursor:
            cursor.cursor.execute(self.sql, prepare=True)  # planned once: it runs after every case
            return tuple(cursor.fetchone())

    def changes(self, before: tuple[Any, ...], after: tuple[Any, ...]) -> list[str]:
        return [
            f"{label} {old!r} -> {new!r}"
            for label, old, new in zip(self.labels, before, after, strict=True)
            if old != new
        ]


# --- the endpoints and the state each starts from -------------------------------------------------


@dataclass
class Target:
    client: APIClient
    url: Callable[[object], str]  # the URL with the endpoint's id (or the id a case gives)
    ident: object | None
    template: dict[str, Any]


@dataclass
class World:
    actors: TableActors
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]]

    def staff(self, role: str) -> Staff:
        provisioned, client = self.make_staff(role)
        return Staff(user=cast(User, provisioned.user), role=role, client=client, token=provisioned.token)

    def ok(self, client: APIClient, url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        response = post(client, url, body)
        assert response.status_code in (200, 201), (url, response.content[:500])
        return dict(response.json())

    def open_table(self) -> APIClient:
        supervisor = self.staff("floor_supervisor").client
        total = sum(int(d) * n for d, n in BANK.items())
        self.ok(
            supervisor, f"/api/v1/tables/{self.actors.table.pk}/open/", {"total_cents": total, "chips": BANK}
        )
        return supervisor

    def shoe(self) -> int:
        return int(self.ok(self.actors.terminal, "/api/v1/shoes/", {"mode": "reported"})["id"])

    def round(self, cards: list[str], actions: tuple[str, ...] = ()) -> dict[str, Any]:
        self.shoe()
        seats = [{"seat": 1, "wagers": [{"kind": "primary", "amount_cents": 1_000}]}]
        body = self.ok(self.actors.terminal, "/api/v1/rounds/", {"seats": seats})
        for card in cards:
            body = self.ok(self.actors.terminal, f"/api/v1/rounds/{body['id']}/cards/", {"card": card})
        for action in actions:
            body = self.ok(
                self.actors.terminal,
                f"/api/v1/rounds/{body['id']}/actions/",
                {"seat": 1, "hand": 0, "action": action},
            )
        return body

    def slip(self, kind: str) -> tuple[int, APIClient]:
        """A pending slip requested by one supervisor, and another who may approve or void it."""
        requester = self.open_table()
        slip = self.ok(
            requester,
            f"/api/v1/{kind}s/",
            {"amount_cents": 5_000, "chips": {"500": 10}, "table": self.actors.table.pk},
        )
        return int(slip["id"]), self.staff("pit_boss").client

    def proposal(self) -> tuple[int, APIClient]:
        pit_boss, compliance = self.staff("pit_boss"), self.staff("compliance")
        row = paytables.propose_paytable(
            pays=LOW_PAYS, user=pit_boss.user, role=pit_boss.role, actor=pit_boss.actor, now=timezone.now()
        )
        compute(row.version)
        return row.version, compliance.client


def _at(pattern: str) -> Callable[[object], str]:
    return lambda ident: pattern.format(ident)


def _plain(url: str) -> Callable[[object], str]:
    return lambda ident: url


def _sign_in(world: World) -> Target:
    dealer = world.actors.provisioned
    return Target(
        world.actors.terminal,
        _plain("/api/v1/terminal/sign-in/"),
        None,
        {"badge": dealer.dealer.badge, "pin": dealer.dealer_pin},
    )


def _sign_out(world: World) -> Target:
    world.actors.sign_in()
    return Target(world.actors.terminal, _plain("/api/v1/terminal/sign-out/"), None, {})


def _shoe_open(world: World) -> Target:
    world.actors.sign_in()
    return Target(world.actors.terminal, _plain("/api/v1/shoes/"), None, {"mode": "reported", "decks": 6})


def _shoe_close(world: World) -> Target:
    world.actors.sign_in()
    return Target(world.actors.terminal, _at("/api/v1/shoes/{}/close/"), world.shoe(), {})


def _playing(world: World) -> None:
    world.actors.sign_in()
    world.open_table()


def _round_open(world: World) -> Target:
    _playing(world)
    world.shoe()
    seat = {
        "seat": 1,
        "player": None,
        "wagers": [{"kind": "primary", "amount_cents": 1_000}, {"kind": "LS", "amount_cents": 100}],
    }
    return Target(world.actors.terminal, _plain("/api/v1/rounds/"), None, {"seats": [seat]})


def _round_card(world: World) -> Target:
    _playing(world)
    dealing = world.round([])
    return Target(
        world.actors.terminal,
        _at("/api/v1/rounds/{}/cards/"),
        dealing["id"],
        {"card": "TS", "expected_seq": 0},
    )


def _round_action(world: World) -> Target:
    _playing(world)
    playing = world.round(["TS", "9H", "8C", "9D"])
    return Target(
        world.actors.terminal,
        _at("/api/v1/rounds/{}/actions/"),
        playing["id"],
        {"seat": 1, "hand": 0, "action": "stand", "expected_seq": playing["seq"]},
    )


def _round_settle(world: World) -> Target:
    _playing(world)
    ready = world.round(["TS", "9H", "8C", "9D"], ("stand",))
    assert ready["state"] == "ready_to_settle"
    return Target(
        world.actors.terminal, _at("/api/v1/rounds/{}/settle/"), ready["id"], {"expected_seq": ready["seq"]}
    )


def _round_void(world: World) -> Target:
    _playing(world)
    dealing = world.round(["TS"])
    supervisor = world.staff("floor_supervisor").client
    return Target(supervisor, _at("/api/v1/rounds/{}/void/"), dealing["id"], {"reason": "dealer misdealt"})


def _buy_in(world: World) -> Target:
    _playing(world)
    body = {"seat": 1, "amount_cents": 500, "method": "cash", "player": None}
    return Target(world.actors.terminal, _plain("/api/v1/buy-ins/"), None, body)


def _slip_request(kind: str) -> Callable[[World], Target]:
    def build(world: World) -> Target:
        _playing(world)
        body = {"amount_cents": 5_000, "chips": {"500": 10}, "table": world.actors.table.pk}
        return Target(world.actors.terminal, _plain(f"/api/v1/{kind}s/"), None, body)

    return build


def _slip_decision(kind: str, verb: str, body: dict[str, Any]) -> Callable[[World], Target]:
    def build(world: World) -> Target:
        world.actors.sign_in()
        slip, approver = world.slip(kind)
        return Target(approver, _at(f"/api/v1/{kind}s/{{}}/{verb}/"), slip, body)

    return build


def _table_count(verb: str) -> Callable[[World], Target]:
    def build(world: World) -> Target:
        world.actors.sign_in()
        supervisor = world.open_table() if verb == "close" else world.staff("floor_supervisor").client
        total = sum(int(d) * n for d, n in BANK.items())
        return Target(
            supervisor,
            _at(f"/api/v1/tables/{{}}/{verb}/"),
            world.actors.table.pk,
            {"total_cents": total, "chips": BANK},
        )

    return build


def _paytable_propose(world: World) -> Target:
    body = {"pays": LOW_PAYS, "decks": 6, "h17": False, "blackjack_pays": "3:2"}
    return Target(world.staff("pit_boss").client, _plain("/api/v1/paytables/"), None, body)


def _paytable_decision(verb: str, body: dict[str, Any]) -> Callable[[World], Target]:
    def build(world: World) -> Target:
        version, compliance = world.proposal()
        return Target(compliance, _at(f"/api/v1/paytables/{{}}/{verb}/"), version, body)

    return build


def _dealer_unlock(world: World) -> Target:
    supervisor = world.staff("floor_supervisor").client
    return Target(supervisor, _at("/api/v1/dealers/{}/unlock/"), world.actors.provisioned.dealer.pk, {})


def _specials(world: World) -> None:
    """The table runs the special-card game, its dealer signed in, with a reported shoe."""
    world.actors.sign_in()
    Table.objects.filter(pk=world.actors.table.pk).update(game=GameKind.SPECIAL_POINTS)
    world.shoe()


def _match(world: World) -> int:
    _specials(world)
    return int(world.ok(world.actors.terminal, "/api/v1/specials/matches/", {"players": [{"seat": 1}]})["id"])


def _specials_round(world: World, cards: list[str]) -> dict[str, Any]:
    round_ = world.ok(world.actors.terminal, f"/api/v1/specials/matches/{_match(world)}/rounds/")
    for card in cards:
        round_ = world.ok(
            world.actors.terminal, f"/api/v1/specials/rounds/{round_['id']}/cards/", {"card": card}
        )
    return round_


def _specials_match_start(world: World) -> Target:
    _specials(world)
    body = {
        "players": [
            {"seat": 1, "player": None, "special": "SWAP"},
            {"seat": 2, "player": "Ana", "special": None},
        ],
        "start_points": 5,
        "win_points": 10,
        "lose_points": 0,
    }
    return Target(world.actors.terminal, _plain("/api/v1/specials/matches/"), None, body)


def _specials_round_open(world: World) -> Target:
    return Target(world.actors.terminal, _at("/api/v1/specials/matches/{}/rounds/"), _match(world), {})


def _specials_card(world: World) -> Target:
    round_ = _specials_round(world, [])
    body = {"card": "TS", "expected_seq": round_["seq"]}
    return Target(world.actors.terminal, _at("/api/v1/specials/rounds/{}/cards/"), round_["id"], body)


def _specials_action(world: World) -> Target:
    round_ = _specials_round(world, ["TS", "7C", "9H", "KD"])
    assert round_["needs"]["kind"] == "action", round_["needs"]
    body = {"seat": 1, "action": "stand", "expected_seq": round_["seq"]}
    return Target(world.actors.terminal, _at("/api/v1/specials/rounds/{}/actions/"), round_["id"], body)


def _patron_create(world: World) -> Target:
    body = {
        "name": "Ana Ruiz",
        "last_name": "Ruiz",
        "identification_type": "passport",
        "identification_reference": "X1",
    }
    return Target(world.staff("floor_supervisor").client, _plain("/api/v1/patrons/"), None, body)


def _patron_identify(world: World) -> Target:
    compliance = world.staff("compliance").client
    number = world.ok(compliance, "/api/v1/patrons/", {"name": "Woman, green scarf"})["number"]
    body = {
        "last_name": "Kim",
        "first_name": "Bea",
        "identification_type": "drivers_license",
        "identification_reference": "D55",
    }
    return Target(compliance, _at("/api/v1/patrons/{}/identify/"), number, body)


def _redemption(world: World) -> Target:
    body = {"amount_cents": 5_000, "chips": {"500": 10}, "patron": None, "description": "Man, grey suit"}
    return Target(world.staff("cage_cashier").client, _plain("/api/v1/cage/redemptions/"), None, body)


def _soft_count_body(world: World) -> dict[str, Any]:
    """The count of the shift before the running one (the last ended shift)."""
    start, _ = shift_bounds(*gaming_day_and_shift(timezone.now()))
    gaming_day, shift = gaming_day_and_shift(start - dt.timedelta(minutes=1))
    return {
        "table": world.actors.table.pk,
        "gaming_day": gaming_day.isoformat(),
        "shift": shift,
        "currency": {"10000": 20, "2000": 15},
        "markers_cents": 0,
        "not_open_confirmed": True,
    }


def _soft_count(world: World) -> Target:
    client = world.staff("count_team").client
    return Target(client, _plain("/api/v1/soft-counts/"), None, _soft_count_body(world))


def _soft_count_tally(world: World) -> Target:
    count = world.ok(world.staff("count_team").client, "/api/v1/soft-counts/", _soft_count_body(world))
    body = {"currency": {"10000": 20, "2000": 15}, "markers_cents": 0}
    return Target(world.staff("count_team").client, _at("/api/v1/soft-counts/{}/tallies/"), count["id"], body)


def _skill_game_create(world: World) -> Target:
    return Target(
        world.staff("pit_boss").client, _plain("/api/v1/games/"), None, {"game": "squares", "limit_s": 600}
    )


def _skill_game_move(world: World) -> Target:
    """A game of Squares in play, moved by its seat's device."""
    created = world.ok(world.staff("pit_boss").client, "/api/v1/games/", {"game": "squares"})
    seat = APIClient()
    seat.credentials(HTTP_AUTHORIZATION=f"Token {created['seats'][0]['token']}")
    body = {"move": "place", "position": 5, "expected_seq": 0}
    return Target(seat, _at("/api/v1/games/{}/moves/"), created["id"], body)


def _patron_exclusion(action: str) -> Callable[[World], Target]:
    def build(world: World) -> Target:
        compliance = world.staff("compliance").client
        number = world.ok(compliance, "/api/v1/patrons/", {"name": "Man, blue coat"})["number"]
        if action == "reinstate":
            world.ok(compliance, f"/api/v1/patrons/{number}/exclude/", {"reason": "self-exclusion"})
        return Target(
            compliance, _at(f"/api/v1/patrons/{{}}/{action}/"), number, {"reason": "signed the form"}
        )

    return build


def _tournament_body(*, closes_at: dt.datetime, heat_at: dt.datetime) -> dict[str, Any]:
    return {
        "name": "Hostile Attack",
        "game": "attack",
        "buy_in_cents": 2_000,
        "fee_cents": 500,
        "max_entries": 20,
        "reentries": 1,
        "registration_closes_at": closes_at.isoformat(),
        "heats": [{"starts_at": heat_at.isoformat()}],
        "start_window_s": 3600,
        "deal": "duplicate",
        "prizes_bp": [6000, 4000],
    }


def _tournament(world: World, *, stage: str) -> tuple[int, dict[str, Staff], list[str]]:
    """A tournament built through its services at `stage`: drafted, registering, running (its heat
    open), played (its heat over) or approved (results approved), with two entries' tokens. Set up
    in the past when it must be running by now."""
    director, cashier = world.staff("tournament_director"), world.staff("cage_cashier")
    pit_boss, compliance = world.staff("pit_boss"), world.staff("compliance")
    now = timezone.now()
    played = stage in ("played", "approved")
    start = (
        now - dt.timedelta(hours=3 if played else 1) if stage != "draft" and stage != "registering" else now
    )
    body = _tournament_body(
        closes_at=start + dt.timedelta(minutes=30), heat_at=start + dt.timedelta(minutes=40)
    )
    made = tournaments.create_tournament(body=body, user=director.user, actor=director.actor, now=start)
    if stage == "draft":
        return made.pk, {"director": director}, []
    tournaments.file_tournament(
        tournament_id=made.pk, reference="NGC-1", filed_on=start.date(), actor=director.actor, now=start
    )
    tokens = []
    for name in ("Ana", "Bea"):
        number = world.ok(cashier.client, "/api/v1/patrons/", {"name": name})["number"]
        _, token = tournaments.register_entry(
            tournament_id=made.pk,
            patron_number=number,
            paid_with="cash",
            nickname="",
            cashier=cashier.user,
            actor=cashier.actor,
            now=start,
        )
        tokens.append(token)
    if stage != "registering":
        tournaments.advance_tournament(
            tournament_id=made.pk, actor=director.actor, now=start + dt.timedelta(minutes=45)
        )
    if played:
        tournaments.advance_tournament(tournament_id=made.pk, actor=director.actor, now=now)
        tournaments.propose_results(tournament_id=made.pk, user=director.user, actor=director.actor, now=now)
    if stage == "approved":
        tournaments.approve_results(
            tournament_id=made.pk, user=compliance.user, role="compliance", actor=compliance.actor, now=now
        )
    staff = {"director": director, "cashier": cashier, "pit_boss": pit_boss, "compliance": compliance}
    return made.pk, staff, tokens


def _tournament_create(world: World) -> Target:
    now = timezone.now()
    body = _tournament_body(closes_at=now + dt.timedelta(hours=1), heat_at=now + dt.timedelta(hours=2))
    return Target(world.staff("tournament_director").client, _plain("/api/v1/tournaments/"), None, body)


def _tournament_file(world: World) -> Target:
    tournament_id, staff, _ = _tournament(world, stage="draft")
    body = {"reference": "NGC-2026-7", "filed_on": "2026-11-18"}
    return Target(staff["director"].client, _at("/api/v1/tournaments/{}/file/"), tournament_id, body)


def _tournament_entry(world: World) -> Target:
    tournament_id, staff, _ = _tournament(world, stage="registering")
    number = world.ok(staff["cashier"].client, "/api/v1/patrons/", {"name": "Cy"})["number"]
    body = {"patron": number, "paid_with": "chips", "nickname": "Cy"}
    return Target(staff["cashier"].client, _at("/api/v1/tournaments/{}/entries/"), tournament_id, body)


def _tournament_cancel(world: World) -> Target:
    tournament_id, staff, _ = _tournament(world, stage="registering")
    return Target(
        staff["director"].client,
        _at("/api/v1/tournaments/{}/cancel/"),
        tournament_id,
        {"reason": "no kiosks"},
    )


def _tournament_cancel_approve(world: World) -> Target:
    tournament_id, staff, _ = _tournament(world, stage="registering")
    world.ok(
        staff["director"].client, f"/api/v1/tournaments/{tournament_id}/cancel/", {"reason": "no kiosks"}
    )
    return Target(staff["pit_boss"].client, _at("/api/v1/tournaments/{}/cancel/approve/"), tournament_id, {})


def _tournament_game(world: World) -> Target:
    tournament_id, _, tokens = _tournament(world, stage="running")
    device = APIClient()
    device.credentials(HTTP_AUTHORIZATION=f"Token {tokens[0]}")
    return Target(device, _at("/api/v1/tournaments/{}/games/"), tournament_id, {})


def _tournament_results(world: World) -> Target:
    tournament_id, staff, _ = _tournament(world, stage="running")
    tournaments.advance_tournament(
        tournament_id=tournament_id, actor=staff["director"].actor, now=timezone.now() + dt.timedelta(hours=2)
    )
    return Target(staff["director"].client, _at("/api/v1/tournaments/{}/results/"), tournament_id, {})


def _tournament_results_approve(world: World) -> Target:
    tournament_id, staff, _ = _tournament(world, stage="played")
    return Target(
        staff["compliance"].client, _at("/api/v1/tournaments/{}/results/approve/"), tournament_id, {}
    )


def _prize_pay(world: World) -> Target:
    tournament_id, staff, _ = _tournament(world, stage="approved")
    prize = Prize.objects.filter(tournament_id=tournament_id).order_by("pk").first()
    assert prize is not None
    return Target(staff["cashier"].client, _at("/api/v1/prizes/{}/pay/"), prize.pk, {"paid_with": "cash"})


# Each POST route of the API (config/urls.py and the apps' url modules), and the state its
# corpus starts from.
ENDPOINTS: dict[str, Callable[[World], Target]] = {
    "api/v1/terminal/sign-in/": _sign_in,
    "api/v1/terminal/sign-out/": _sign_out,
    "api/v1/dealers/<int:dealer_id>/unlock/": _dealer_unlock,
    "api/v1/shoes/": _shoe_open,
    "api/v1/shoes/<int:shoe_id>/close/": _shoe_close,
    "api/v1/rounds/": _round_open,
    "api/v1/rounds/<int:round_id>/cards/": _round_card,
    "api/v1/rounds/<int:round_id>/actions/": _round_action,
    "api/v1/rounds/<int:round_id>/settle/": _round_settle,
    "api/v1/rounds/<int:round_id>/void/": _round_void,
    "api/v1/buy-ins/": _buy_in,
    "api/v1/fills/": _slip_request("fill"),
    "api/v1/credits/": _slip_request("credit"),
    "api/v1/fills/<int:slip_id>/approve/": _slip_decision("fill", "approve", {}),
    "api/v1/credits/<int:slip_id>/approve/": _slip_decision("credit", "approve", {}),
    "api/v1/fills/<int:slip_id>/void/": _slip_decision("fill", "void", {"reason": "counted twice"}),
    "api/v1/credits/<int:slip_id>/void/": _slip_decision("credit", "void", {"reason": "counted twice"}),
    "api/v1/tables/<int:table_id>/open/": _table_count("open"),
    "api/v1/tables/<int:table_id>/close/": _table_count("close"),
    "api/v1/paytables/": _paytable_propose,
    "api/v1/paytables/<int:version>/approve/": _paytable_decision("approve", {"override_reason": ""}),
    "api/v1/paytables/<int:version>/reject/": _paytable_decision(
        "reject", {"reason": "too generous for our floor"}
    ),
    "api/v1/specials/matches/": _specials_match_start,
    "api/v1/specials/matches/<int:match_id>/rounds/": _specials_round_open,
    "api/v1/specials/rounds/<int:round_id>/cards/": _specials_card,
    "api/v1/specials/rounds/<int:round_id>/actions/": _specials_action,
    "api/v1/patrons/": _patron_create,
    "api/v1/patrons/<int:number>/identify/": _patron_identify,
    "api/v1/cage/redemptions/": _redemption,
    "api/v1/soft-counts/": _soft_count,
    "api/v1/soft-counts/<int:count_id>/tallies/": _soft_count_tally,
    "api/v1/games/": _skill_game_create,
    "api/v1/games/<int:game_id>/moves/": _skill_game_move,
    "api/v1/patrons/<int:number>/exclude/": _patron_exclusion("exclude"),
    "api/v1/patrons/<int:number>/reinstate/": _patron_exclusion("reinstate"),
    "api/v1/tournaments/": _tournament_create,
    "api/v1/tournaments/<int:tournament_id>/file/": _tournament_file,
    "api/v1/tournaments/<int:tournament_id>/entries/": _tournament_entry,
    "api/v1/tournaments/<int:tournament_id>/cancel/": _tournament_cancel,
    "api/v1/tournaments/<int:tournament_id>/cancel/approve/": _tournament_cancel_approve,
    "api/v1/tournaments/<int:tournament_id>/games/": _tournament_game,
    "api/v1/tournaments/<int:tournament_id>/results/": _tournament_results,
    "api/v1/tournaments/<int:tournament_id>/results/approve/": _tournament_results_approve,
    "api/v1/prizes/<int:prize_id>/pay/": _prize_pay,
}
# At least 2,000 cases in all.
MIN_CASES_PER_ENDPOINT = -(-MIN_CASES // len(ENDPOINTS))


def _api_post_routes(resolver: Any, prefix: str = "") -> set[str]:
    routes: set[str] = set()
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if hasattr(pattern, "url_patterns"):
            routes |= _api_post_routes(pattern, route)
        elif route.startswith("api/") and hasattr(getattr(pattern.callback, "view_class", None), "post"):
            routes.add(route)
    return routes


def test_the_corpus_covers_every_post_endpoint_of_the_api() -> None:
    routes = _api_post_routes(get_resolver())

    assert sorted(routes - set(ENDPOINTS)) == [], "POST routes without a corpus"
    assert sorted(set(ENDPOINTS) - routes) == [], "no such POST routes"


def run(
    target: Target, case: Case, fingerprint: Fingerprint, before: tuple[Any, ...]
) -> tuple[int, list[str], tuple[Any, ...]]:
    """Send `case`; the answer's status, what is wrong with it, and the fingerprint after it."""
    headers = {"HTTP_IDEMPOTENCY_KEY": str(uuid.uuid4()), **case.headers}
    url = target.url(case.path if case.path is not None else target.ident)
    send: Callable[..., Any] = target.client.generic  # Django takes a bytes body; its stubs say str
    response = send("POST", url, case.body, content_type=case.content_type, **headers)
    status = response.status_code
    problems: list[str] = []
    if status >= 500:
        problems.append(f"answered {status}")
    if 400 <= status < 500:
        problems += _problem_shape(response)
    if case.must_refuse and not 400 <= status < 500:
        problems.append(f"must be refused, answered {status}")
    after = fingerprint.read()
    if status >= 400 and after != before:
        problems.append(f"a refused request ({status}) changed {fingerprint.changes(before, after)}")
    return status, problems, after


def _problem_shape(response: Any) -> list[str]:
    if response["Content-Type"] != PROBLEM:
        return [f"Content-Type {response['Content-Type']!r}"]
    try:
        body = json.loads(response.content.decode("utf-8"))  # strict: no lone surrogate written back
    except ValueError as error:
        return [f"problem body is not UTF-8 JSON: {error}"]
    wrong = []
    if not SNAKE_CASE.fullmatch(str(body.get("code"))):
        wrong.append(f"code {body.get('code')!r} is not snake_case")
    if body.get("status") != response.status_code:
        wrong.append(f"status {body.get('status')!r} in the body")
    if not isinstance(body.get("errors"), list) or any(
        not isinstance(error, dict) or set(error) != {"field", "code", "message"} for error in body["errors"]
    ):
        wrong.append(f"errors {str(body.get('errors'))[:100]}")
    return wrong


@pytest.fixture
def quiet_request_log(monkeypatch: pytest.MonkeyPatch) -> None:
    """Thousands of expected 4xx would each log a warning; a 5xx fails the case anyway."""
    monkeypatch.setattr(logging.getLogger("django.request"), "disabled", True)


@pytest.fixture
def fixed_clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    """The day shift of one gaming day, so that no run straddles a shift change."""
    day_shift_clock(monkeypatch, settings)


@pytest.mark.parametrize("route", list(ENDPOINTS))
def test_hostile_requests_get_a_problem_and_change_nothing(
    route: str,
    fixed_clock: None,
    quiet_request_log: None,
    make_table: Callable[..., TableActors],
    make_staff: Callable[[str], tuple[ProvisionedStaff, APIClient]],
) -> None:
    world = World(actors=make_table("HOSTILE-1", signed_in=False), make_staff=make_staff)
    target = ENDPOINTS[route](world)
    cases = cases_for(route, target.template, field_cases=FIELD_CASES, with_ids=target.ident is not None)
    assert len(cases) >= MIN_CASES_PER_ENDPOINT
    fingerprint = Fingerprint.of_database()
    state = fingerprint.read()
    statuses: Counter[int] = Counter()
    failures: list[str] = []

    for case in cases:
        status, problems, state = run(target, case, fingerprint, state)
        statuses[status] += 1
        failures += [f"{case.label}: {problem}" for problem in problems]

    assert failures == [], f"{len(failures)} of {len(cases)} cases failed ({dict(statuses)}):\n" + "\n".join(
        failures[:40]
    )
    assert sum(n for status, n in statuses.items() if status >= 400) > len(cases) // 2  # mostly refusals
