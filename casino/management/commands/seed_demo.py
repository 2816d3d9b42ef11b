import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.utils import timezone

from audit.management.base import PlainErrorsCommand
from casino.models import Casino, GameKind
from casino.services.provisioning import create_staff, provision_table

DEMO_CASINO = "Demo casino"
CREDENTIALS_FILE = Path(settings.BASE_DIR) / ".local" / "demo-credentials.json"


def load_demo_credentials(path: Path = CREDENTIALS_FILE) -> dict[str, Any] | None:
    if path.exists():
        return dict(json.loads(path.read_text()))
    return None


class Command(PlainErrorsCommand):
    help = (
        "Load the demo casino once: a pit, two tie-bonus tables and a special-card points table with "
        "terminals and dealers, and staff logins."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--credentials-file", type=Path, default=CREDENTIALS_FILE, help=f"default: {CREDENTIALS_FILE}"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        credentials_file: Path = options["credentials_file"]
        if credentials_file.is_dir():
            raise CommandError(f"--credentials-file {credentials_file} is a directory.")
        if Casino.objects.filter(name=DEMO_CASINO).exists():
            self.stdout.write("Demo data already loaded.")
            return
        now = timezone.now()
        tables = [
            provision_table(name="BJ-01", decks=6, casino_name=DEMO_CASINO, pit_name="Pit 1", now=now),
            provision_table(
                name="BJ-02", decks=8, h17=True, aggregate_limit_cents=5_000_000, surrender=True,
                casino_name=DEMO_CASINO, pit_name="Pit 1", now=now,
            ),
            provision_table(
                name="SP-01", decks=6, game=GameKind.SPECIAL_POINTS, casino_name=DEMO_CASINO, pit_name="Pit 1",
                now=now,
            ),
        ]  # fmt: skip
        staff = [
            create_staff(username="admin", role="admin", password="admin-demo-2026", now=now),  # noqa: S106
            create_staff(username="floor", role="floor_supervisor", password="floor-demo-2026", now=now),  # noqa: S106
            create_staff(username="pitboss", role="pit_boss", password="pitboss-demo-2026", now=now),  # noqa: S106
            create_staff(username="compliance", role="compliance", password="compliance-demo-2026", now=now),  # noqa: S106
        ]
        credentials = {
            "tables": [
                {"table": t.table.name, "game": t.table.game, "terminal_token": t.terminal_token,
                 "dealer": {"badge": t.dealer.badge, "pin": t.dealer_pin}}
                for t in tables
            ],
            "staff": [{"username": s.user.username, "password": s.password, "role": s.role,
                       "token": s.token} for s in staff],
        }  # fmt: skip
        credentials_file.parent.mkdir(parents=True, exist_ok=True)
        credentials_file.write_text(json.dumps(credentials, indent=2))
        credentials_file.chmod(0o600)
        self.stdout.write(f"Demo data loaded; credentials in {credentials_file}.")
