"""Print the compliance report of a paytable version: probabilities, house edges, steering flags.

    python manage.py paytable_report [--version N] [--decks 6|8] [--h17] [--blackjack-pays 3:2|6:5]
                                     [--surrender] [--workers 1] [--shoe A,2,...,ten]

The report is computed now (a few seconds of CPU for a full shoe, in this process), with a
progress bar on stderr when stderr is a terminal (none in a log or captured output); the version
defaults to the one in force. Every figure is exact and
labelled with its model. It is printed, not stored: a
proposal's stored report is computed by the Celery task when it is proposed. Bad arguments get a
one-line error and exit status 2 (1 for an unknown version).
"""

import argparse
import sys
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from blackjack.engine.rules import BLACKJACK_PAYS
from bonus_tie.engine.paytable_review import format_review
from bonus_tie.mappers import paytable_for
from bonus_tie.reports import DEFAULT_WORKERS, run_review
from bonus_tie.selectors import get_paytable_version, get_version_in_force
from bonus_tie.services import review_rules
from casino.engine.shoe import DECK_COUNTS
from kernel.errors import CodedError

MOST_IN_A_SHOE = (32,) * 9 + (128,)  # 8 decks: Aces to nines, then the ten-value cards


def _whole(low: int, high: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, not {value}")
        return value

    return parse


def _decks(text: str) -> int:
    if text not in {str(count) for count in DECK_COUNTS}:
        raise argparse.ArgumentTypeError(f"must be 6 or 8, not {text!r}")
    return int(text)


def _blackjack_pays(text: str) -> str:
    if text not in BLACKJACK_PAYS:
        raise argparse.ArgumentTypeError(f"must be 3:2 or 6:5, not {text!r}")
    return text


def _shoe(text: str) -> tuple[int, ...]:
    parts = text.split(",")
    if len(parts) != 10 or not all(part.strip().isascii() and part.strip().isdigit() for part in parts):
        raise argparse.ArgumentTypeError(
            "must be ten comma-separated counts, Aces first and ten-value cards last"
        )
    counts = tuple(int(part) for part in parts)
    if sum(counts) < 4:
        raise argparse.ArgumentTypeError("must hold at least four cards")
    if any(count > most for count, most in zip(counts, MOST_IN_A_SHOE, strict=True)):
        raise argparse.ArgumentTypeError(
            "must hold at most what 8 decks do: 32 of each rank and 128 ten-value cards"
        )
    return counts


class Command(BaseCommand):
    help = "Compute and print the house-edge report and steering check of a paytable version."

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        # `--version` is ours (the paytable version), not Django's "print the Django version".
        kwargs.setdefault("conflict_handler", "resolve")
        parser = super().create_parser(prog_name, subcommand, **kwargs)

        def error(message: str) -> NoReturn:
            if parser.called_from_command_line:
                sys.stderr.write(f"paytable_report: error: {message}\n")
                sys.exit(2)
            raise CommandError(f"Error: {message}")

        parser.error = error  # type: ignore[method-assign]  # one line, not argparse's usage block
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--version", type=_whole(1, 2**31 - 1), help="Paytable version (default: the one in force)."
        )
        parser.add_argument("--decks", type=_decks, default=6, help="6 or 8 (default 6).")
        parser.add_argument("--h17", action="store_true", help="Dealer hits soft 17 (default: stands, S17).")
        parser.add_argument(
            "--blackjack-pays", type=_blackjack_pays, default="3:2", help="3:2 (default) or 6:5."
        )
        parser.add_argument(
            "--surrender", action="store_true", help="Late surrender allowed (default: not allowed)."
        )
        parser.add_argument(
            "--workers", type=_whole(0, 64), default=DEFAULT_WORKERS, help="Worker processes (0 or 1: none)."
        )
        parser.add_argument(
            "--shoe",
            type=_shoe,
            help="A custom shoe for what-if studies: ten counts, Aces first, ten-value cards last "
            "(replaces the full shoe of --decks decks).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        number = options["version"] if options["version"] is not None else get_version_in_force()
        if number is None:
            raise CommandError("No paytable version is approved yet; name one with --version.")
        row = get_paytable_version(version=number)
        if row is None:
            raise CommandError(f"No paytable version {number}.")
        try:
            rules = review_rules(
                decks=options["decks"],
                h17=options["h17"],
                blackjack_pays=options["blackjack_pays"],
                surrender=options["surrender"],
            )
        except CodedError as exc:
            raise CommandError(exc.detail) from exc
        err = getattr(self.stderr, "_out", sys.stderr)
        # A bar redraws itself with carriage returns: only a terminal shows it as one line.
        shown = callable(getattr(err, "isatty", None)) and err.isatty()
        with tqdm(
            desc="computing, by dealer up card",
            unit="up card",
            file=err,
            dynamic_ncols=True,
            disable=not shown,
        ) as bar:

            def progress(done: int, total: int) -> None:
                if bar.total != total:
                    bar.total = total
                bar.update(done - bar.n)

            try:
                timed = run_review(
                    paytable=paytable_for(row),
                    rules=rules,
                    composition=options["shoe"],
                    workers=options["workers"],
                    progress=progress,
                )
            except ValueError as exc:
                raise CommandError(str(exc)) from exc
        self.stdout.write(f"Paytable v{row.version} ({row.status})")
        self.stdout.write(format_review(timed.review))
        processes = f"{timed.workers} worker processes" if timed.workers > 1 else "in this process"
        self.stdout.write(
            f"Elapsed: {timed.elapsed_seconds:.1f} s, CPU {timed.cpu_seconds:.1f} s ({processes})"
        )
