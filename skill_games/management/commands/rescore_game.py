"""`manage.py rescore_game <id>`: a game's score recomputed from its deck orders (one a game of the
match) and move log alone, and whether it matches the score the game ended with and every stored
deck hashes to its published commitment (RULES.md §3)."""

import json
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils import timezone

from audit.management.base import PlainErrorsCommand
from casino.management.arguments import BIGINT_MAX, whole_number
from kernel.errors import CodedError
from skill_games.services import rescore_game


class Command(PlainErrorsCommand):
    help = "Recompute a skill game's score from its log and say whether it matches the stored one."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id", type=whole_number(1, BIGINT_MAX), help="the game's id")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            result = rescore_game(game_id=options["game_id"], now=timezone.now())
        except CodedError as refused:
            raise CommandError(refused.detail) from refused
        self.stdout.write(
            f"game {result.game_id}: recomputed score {json.dumps(result.score, sort_keys=True)}"
        )
        self.stdout.write(f"stored score {json.dumps(result.stored, sort_keys=True)}")
        self.stdout.write(f"commitment holds: {'yes' if result.commitment_holds else 'no'}")
        self.stdout.write(f"matches: {'yes' if result.matches else 'no'}")
        if not result.matches:
            raise CommandError(f"game {result.game_id}: the recomputed score does not match")
