"""Every step of a tournament is an event of the tournament's own audit chain (RULES.md §4):
`tournament:<id>`, verified, anchored and exported like the others; a change to one of its events
is found, in that chain alone. The Title 31 events of its cash stay in the casino-wide chain."""

import io
import json
from collections.abc import Callable

import pytest
from django.core.management import call_command

from audit.chain import anchor_digest
from audit.exports import export_gaming_day
from audit.models import AuditEvent
from audit.services import record_anchor, verify_chain
from tests.support.api import ok, post
from tests.support.database import as_superuser_bypassing_triggers
from tests.support.gaming_day import GAMING_DAY, Clock

from .conftest import Run, Staff
from .money_support import play_out, squares_run

pytestmark = pytest.mark.django_db


def test_a_tournaments_steps_form_its_own_chain_which_verifies_and_is_anchored(
    create: Callable[..., Run], patron: Callable[..., int], staff: Staff, clock: Clock, settings: object
) -> None:
    run = squares_run(create, clock, buy_in_cents=400_000, fee_cents=50_000)
    other = squares_run(create, clock)
    run.entered(patron(), "cash")  # $4,500 cash: on the MTL, its CTR events none (under the line)
    run.entered(patron(), "chips")
    other.entered(patron(), "chips")
    play_out(run)

    chain = f"tournament:{run.id}"
    events = list(AuditEvent.objects.filter(chain=chain).order_by("seq"))
    assert [event.seq for event in events] == list(range(1, len(events) + 1))
    assert [event.event_type for event in events][:4] == [
        "tournaments.tournament.created",
        "tournaments.tournament.filed",
        "tournaments.entry.registered",
        "tournaments.entry.registered",
    ]
    assert "tournaments.results.approved" in {event.event_type for event in events}
    assert {event.subject_id for event in events} == {str(run.id)}
    assert not AuditEvent.objects.filter(event_type__startswith="tournaments.", chain="casino").exists()
    assert AuditEvent.objects.filter(chain=f"tournament:{other.id}").count() == 3

    result = verify_chain()
    assert result.ok
    assert {c.chain for c in result.chains} >= {chain, f"tournament:{other.id}"}
    anchor = record_anchor()
    assert [chain, len(events), events[-1].hash] in anchor.heads
    assert anchor.digest == anchor_digest([tuple(head) for head in anchor.heads])

    out = io.StringIO()
    call_command("audit_verify", stdout=out)
    assert "audit chains intact" in out.getvalue()
    exported = [json.loads(line) for line in export_gaming_day(day=GAMING_DAY, fmt="jsonl")]
    assert sum(1 for row in exported if row["chain"] == chain) == len(events)

    listed = staff.compliance.get("/api/v1/audit/events/", {"chain": chain})
    assert [row["seq"] for row in ok(listed)["results"]] == list(range(1, len(events) + 1))

    with as_superuser_bypassing_triggers() as cursor:
        cursor.execute(
            "UPDATE audit_auditevent SET after = '{\"entry\": 9}'::jsonb WHERE id = %s", [events[2].pk]
        )
    tampered = verify_chain()
    assert [c.chain for c in tampered.chains if not c.ok] == [chain]
    assert tampered.broken is not None
    assert (tampered.broken.chain, tampered.broken.seq) == (chain, 3)


def test_a_cancelled_tournaments_refunds_are_in_its_chain(
    create: Callable[..., Run], patron: Callable[..., int], staff: Staff, clock: Clock
) -> None:
    run = squares_run(create, clock)
    run.entered(patron(), "cash")
    ok(post(staff.director, f"{run.url}cancel/", {"reason": "no players"}))
    ok(post(staff.pit_boss, f"{run.url}cancel/approve/"))
    last = AuditEvent.objects.filter(chain=f"tournament:{run.id}").order_by("-seq").first()
    assert last is not None
    assert last.event_type == "tournaments.tournament.cancelled"
    assert last.after is not None
    assert last.after["refunds"][0]["paid_with"] == "cash"
    assert verify_chain().ok
