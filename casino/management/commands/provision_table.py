import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from casino.engine.errors import RuleError
from casino.services.provisioning import provision_table
from kernel.errors import ServiceError


class Command(BaseCommand):
    help = "Create a tie-bonus table with its terminal and a dealer; prints JSON with the one-time secrets."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--name", required=True)
        parser.add_argument("--decks", type=int, required=True, choices=[6, 8])
        parser.add_argument("--h17", action="store_true", help="Dealer hits soft 17 (default: stands).")
        parser.add_argument("--blackjack-pays", default="3:2", choices=["3:2", "6:5"])
        parser.add_argument("--aggregate-limit-cents", type=int, default=None)
        parser.add_argument("--surrender", action="store_true", help="Allow late surrender.")
        parser.add_argument("--pit", default="Main pit")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            made = provision_table(
                name=options["name"],
                decks=options["decks"],
                h17=options["h17"],
                blackjack_pays=options["blackjack_pays"],
                aggregate_limit_cents=options["aggregate_limit_cents"],
                surrender=options["surrender"],
                pit_name=options["pit"],
                now=timezone.now(),
            )
        except (ServiceError, RuleError) as exc:
            raise CommandError(exc.detail) from None
        self.stdout.write(
            json.dumps(
                {
                    "table": made.table.name,
                    "terminal_token": made.terminal_token,
                    "dealer": {"badge": made.dealer.badge, "pin": made.dealer_pin},
                }
            )
        )
