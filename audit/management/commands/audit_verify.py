"""Walk the audit hash chain: prints the event count and the head hash, or the first broken link.

Exit status 0 when intact, 1 when broken (2 for bad arguments).
"""

import json
import time
from typing import Any

from django.core.management.base import CommandError, CommandParser

from audit import services
from audit.management.base import PlainErrorsCommand


class Command(PlainErrorsCommand):
    help = "Verify the audit trail's hash chain (streamed; exit status 1 when it is broken)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true", help="Print the result as JSON.")
        parser.add_argument(
            "--since-checkpoint",
            action="store_true",
            help="Walk only the events after the latest good checkpoint (linked to its recorded hash).",
        )
        parser.add_argument(
            "--chunk-size", type=int, default=10_000, help="Rows fetched per round trip (default 10000)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        chunk_size = options["chunk_size"]
        if chunk_size < 1:
            raise CommandError("--chunk-size must be at least 1")
        started = time.perf_counter()
        result = services.verify_chain(since_checkpoint=options["since_checkpoint"], chunk_size=chunk_size)
        elapsed = time.perf_counter() - started
        if options["json"]:
            self.stdout.write(json.dumps(result.as_dict()))
        elif result.ok:
            walked = result.events - result.started_after
            rate = walked / elapsed if elapsed > 0 else 0.0
            scope = (
                f"events after checkpoint #{result.started_after}" if result.started_after else "all events"
            )
            self.stdout.write(
                f"audit chain intact: {result.events} events, head {result.head_hash} "
                f"({scope} walked, {result.anchors_checked} checkpoints matched; "
                f"{elapsed:.2f} s, {rate:,.0f} events/s)"
            )
        broken = result.broken
        if broken is not None:
            where = f"event #{broken.seq}" + (f" (id {broken.id})" if broken.id is not None else "")
            raise CommandError(
                f"audit chain BROKEN at {where}: {broken.reason}: {broken.detail}; "
                f"{result.events} events verified before it",
                returncode=1,
            )
