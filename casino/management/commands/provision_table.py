import argparse
import json
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils import timezone

from audit.management.base import PlainErrorsCommand
from casino.engine.errors import RuleError
from casino.engine.shoe import DECK_COUNTS
from casino.games import games
from casino.management.arguments import BIGINT_MAX, name_of, whole_number
from casino.models import Casino, Pit, Terminal
from casino.services.provisioning import provision_table
from kernel.errors import CodedError


def _name_length(model: Any) -> int:
    return int(model._meta.get_field("name").max_length)


TERMINAL_SUFFIX = "-T1"  # the table's first terminal is named after it: BJ-07-T1
MAX_TABLE_NAME = _name_length(Terminal) - len(TERMINAL_SUFFIX)
MAX_CASINO_NAME = _name_length(Casino)
MAX_PIT_NAME = _name_length(Pit)


def _blackjack_pays(text: str) -> str:
    """A payout the games that pay a Blackjack take (each game decides its own rule values)."""
    try:
        for game in games():
            if "blackjack_pays" in game.rule_fields:
                game.check_rule("blackjack_pays", text)
    except RuleError as refused:
        raise argparse.ArgumentTypeError(refused.detail) from None
    return text


class Command(PlainErrorsCommand):
    help = (
        "Create a table (tie-bonus blackjack, or with --game specials the special-card points game) with "
        "its terminal and a dealer in an existing pit; prints JSON with "
        "the one-time secrets. A new pit or casino is created only when asked (--create-pit, --create-casino)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--name", required=True, type=name_of("--name", max_length=MAX_TABLE_NAME), help="e.g. BJ-07"
        )
        parser.add_argument("--decks", type=int, required=True, choices=DECK_COUNTS)
        parser.add_argument(
            "--game",
            choices=sorted(game.code for game in games()),
            default="tie_bonus",
            help=", ".join(f"{game.code} ({game.name})" for game in games()) + "; default tie_bonus.",
        )
        parser.add_argument("--h17", action="store_true", help="Dealer hits soft 17 (default: stands).")
        parser.add_argument(
            "--blackjack-pays",
            default="3:2",
            type=_blackjack_pays,
            help="3:2 (default) or 6:5, at a blackjack table.",
        )
        parser.add_argument(
            "--aggregate-limit-cents", type=whole_number(1, BIGINT_MAX), default=None, help="default: none"
        )
        parser.add_argument("--surrender", action="store_true", help="Allow late surrender.")
        parser.add_argument(
            "--casino",
            type=name_of("--casino", max_length=MAX_CASINO_NAME),
            help="An existing casino (default: the only one there is).",
        )
        parser.add_argument(
            "--pit", required=True, type=name_of("--pit", max_length=MAX_PIT_NAME), help="An existing pit."
        )
        parser.add_argument("--create-pit", action="store_true", help="Create the pit if it does not exist.")
        parser.add_argument(
            "--create-casino",
            action="store_true",
            help="Create the casino named by --casino if it does not exist (needs --create-pit too).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        casino_name = self._casino_name(options["casino"], create=options["create_casino"])
        if (
            not options["create_pit"]
            and not Pit.objects.filter(casino__name=casino_name, name=options["pit"]).exists()
        ):
            raise CommandError(
                f"No pit {options['pit']!r} in casino {casino_name!r} "
                f"(pits: {_listed(Pit.objects.filter(casino__name=casino_name))}); "
                "add --create-pit to create it."
            )
        try:
            made = provision_table(
                name=options["name"],
                decks=options["decks"],
                h17=options["h17"],
                blackjack_pays=options["blackjack_pays"],
                aggregate_limit_cents=options["aggregate_limit_cents"],
                surrender=options["surrender"],
                casino_name=casino_name,
                pit_name=options["pit"],
                game=next(game.kind for game in games() if game.code == options["game"]),
                now=timezone.now(),
            )
        except CodedError as exc:
            raise CommandError(exc.detail) from None
        self.stdout.write(
            json.dumps(
                {
                    "table": made.table.name,
                    "game": made.table.game,
                    "terminal_token": made.terminal_token,
                    "dealer": {"badge": made.dealer.badge, "pin": made.dealer_pin},
                }
            )
        )

    def _casino_name(self, name: str | None, *, create: bool) -> str:
        """The casino the table goes into: the one named, or the only one there is."""
        if name is None:
            if create:
                raise CommandError("--create-casino needs the new casino's name in --casino.")
            names = list(Casino.objects.values_list("name", flat=True)[:2])
            if not names:
                raise CommandError("There is no casino yet: name one with --casino and add --create-casino.")
            if len(names) > 1:
                raise CommandError(
                    f"Name the casino with --casino (casinos: {_listed(Casino.objects.all())})."
                )
            return names[0]
        if Casino.objects.filter(name=name).exists():
            return name
        if not create:
            raise CommandError(
                f"No casino {name!r} (casinos: {_listed(Casino.objects.all())}); add --create-casino to create it."
            )
        return name


def _listed(rows: Any) -> str:
    names = sorted(rows.values_list("name", flat=True))
    return ", ".join(repr(name) for name in names) if names else "none"
