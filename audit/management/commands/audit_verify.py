"""Walk every audit hash chain and check the anchors: prints the event count and the digest of all
chain heads (as an anchor records it: compare it with the off-host anchor log), or each broken
chain's first broken link and each altered anchor.

Exit status 0 when intact, 1 when broken (2 for bad arguments).
"""

import json
import time
from typing import Any

from django.core.management.base import CommandError, CommandParser

from audit import services
from audit.management.base import PlainErrorsCommand

MAX_CHUNK_SIZE = 1_000_000  # rows held in memory at once


class Command(PlainErrorsCommand):
    help = "Verify the audit trail's hash chains and anchors (streamed; exit status 1 when broken)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true", help="Print the result as JSON.")
        parser.add_argument(
            "--since-checkpoint",
            action="store_true",
            help="Walk each chain only from the head the latest good checkpoint verified.",
        )
        parser.add_argument(
            "--chunk-size", type=int, default=10_000, help="Rows fetched per round trip (default 10000)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        chunk_size = options["chunk_size"]
        if not 1 <= chunk_size <= MAX_CHUNK_SIZE:
            raise CommandError(f"--chunk-size must be from 1 to {MAX_CHUNK_SIZE}, not {chunk_size}")
        started = time.perf_counter()
        result = services.verify_chain(since_checkpoint=options["since_checkpoint"], chunk_size=chunk_size)
        elapsed = time.perf_counter() - started
        if options["json"]:
            self.stdout.write(json.dumps(result.as_dict()))
        elif result.ok:
            walked = result.events - result.started_after
            rate = walked / elapsed if elapsed > 0 else 0.0
            scope = (
                f"events after the latest checkpoint walked ({walked} of {result.events})"
                if result.started_after
                else "all events walked"
            )
            self.stdout.write(
                f"audit chains intact: {result.events} events in {len(result.chains)} chains, "
                f"head of all chains {result.head_hash} ({scope}, {result.anchors_checked} anchors matched; "
                f"{elapsed:.2f} s, {rate:,.0f} events/s)"
            )
        if result.ok:
            return
        for problem in result.anchor_problems:
            self.stderr.write(f"audit anchor {problem.anchor_id} ALTERED: {problem.detail}")
        broken_chains = [chain for chain in result.chains if chain.broken is not None]
        for chain in broken_chains[1:]:
            self.stderr.write(f"audit chain {chain.chain} BROKEN: {json.dumps(chain.as_dict()['broken_at'])}")
        first = broken_chains[0] if broken_chains else None
        if first is None or first.broken is None:
            raise CommandError(
                f"audit anchors BROKEN: {len(result.anchor_problems)} altered; every chain intact",
                returncode=1,
            )
        broken = first.broken
        where = f"event #{broken.seq}" + (f" (id {broken.id})" if broken.id is not None else "")
        raise CommandError(
            f"audit chain {first.chain} BROKEN at {where}: {broken.reason}: {broken.detail}; "
            f"{first.events} events of it verified before the break; "
            f"{len(broken_chains)} of {len(result.chains)} chains broken",
            returncode=1,
        )
