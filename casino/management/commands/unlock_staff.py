from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils import timezone

from audit.context import AuditActor
from audit.management.base import PlainErrorsCommand
from casino.services.staff_sign_in import unlock_staff_sign_in
from kernel.errors import CodedError


class Command(PlainErrorsCommand):
    help = (
        "Unlock a staff username locked after too many failed sign-ins (the admin site's "
        "'Staff sign-in locks' page does the same). To set a new password: `changepassword`."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            unlock_staff_sign_in(
                username=options["username"],
                actor=AuditActor(kind="system", username="manage.py unlock_staff"),
                now=timezone.now(),
            )
        except CodedError as exc:
            raise CommandError(exc.detail) from None
        self.stdout.write(f"{options['username']} unlocked.")
