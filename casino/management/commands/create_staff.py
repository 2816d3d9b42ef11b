import argparse
import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import CommandError, CommandParser
from django.utils import timezone

from audit.management.base import PlainErrorsCommand
from casino.management.arguments import name_of
from casino.models import Pit, StaffRole
from casino.services.provisioning import create_staff
from kernel.errors import CodedError


def username(text: str) -> str:
    """A username the admin site itself would accept: Django's own field checks (not blank,
    at most 150 characters, letters, digits and @ . + - _ only)."""
    try:
        return str(get_user_model()._meta.get_field("username").clean(text, None))
    except ValidationError as exc:
        raise argparse.ArgumentTypeError(" ".join(exc.messages)) from None


class Command(PlainErrorsCommand):
    help = (
        "Create a staff account with a role (a floor supervisor or pit boss with the pits they run); "
        "prints JSON with its password and API token (shown once)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", required=True, type=username)
        parser.add_argument("--role", required=True, choices=StaffRole.values)
        parser.add_argument(
            "--pit",
            action="append",
            default=[],
            dest="pits",
            type=name_of("--pit", max_length=int(Pit._meta.get_field("name").max_length or 0)),
            help="A pit the floor supervisor or pit boss runs (repeat for several): they see its tables.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            made = create_staff(
                username=options["username"], role=options["role"], pits=options["pits"], now=timezone.now()
            )
        except CodedError as exc:
            raise CommandError(exc.detail) from None
        self.stdout.write(
            json.dumps(
                {
                    "username": made.user.username,
                    "password": made.password,
                    "token": made.token,
                    "pits": [pit.name for pit in made.pits],
                }
            )
        )
