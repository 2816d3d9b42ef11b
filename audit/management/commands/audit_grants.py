"""Print the GRANT/REVOKE SQL for an application role that may only INSERT and SELECT audit tables."""

from typing import Any

from django.core.management.base import CommandError, CommandParser

from audit.dbroles import grant_sql
from audit.management.base import PlainErrorsCommand


class Command(PlainErrorsCommand):
    help = "Print the SQL granting the application role INSERT and SELECT only on the audit tables."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("role", help="The application's database role, e.g. casino_app.")
        parser.add_argument("--schema", default="public")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            self.stdout.write(grant_sql(options["role"], schema=options["schema"]), ending="")
        except ValueError as exc:
            raise CommandError(str(exc)) from None
