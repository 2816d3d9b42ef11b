import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from casino.models import StaffRole
from casino.services.provisioning import create_staff
from kernel.errors import ServiceError


class Command(BaseCommand):
    help = "Create a staff account with a role; prints JSON with its password and API token (shown once)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", required=True)
        parser.add_argument("--role", required=True, choices=StaffRole.values)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            made = create_staff(username=options["username"], role=options["role"], now=timezone.now())
        except ServiceError as exc:
            raise CommandError(exc.detail) from None
        self.stdout.write(
            json.dumps({"username": made.user.username, "password": made.password, "token": made.token})
        )
