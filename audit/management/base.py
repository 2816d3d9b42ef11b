"""A command base whose argument errors are one plain line, not a usage dump or a traceback."""

import sys
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandError, CommandParser


class PlainErrorsCommand(BaseCommand):
    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)

        def error(message: str) -> NoReturn:
            if parser.called_from_command_line:
                sys.stderr.write(f"{subcommand}: error: {message}\n")
                sys.exit(2)
            raise CommandError(f"Error: {message}")

        parser.error = error  # type: ignore[method-assign]
        return parser
