import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import timezone

from casino.models import Casino
from casino.services.provisioning import create_staff, provision_table

DEMO_CASINO = "Demo casino"
CREDENTIALS_FILE = Path(settings.BASE_DIR) / ".local" / "demo-credentials.json"


def load_demo_credentials() -> dict[str, Any] | None:
    if CREDENTIALS_FILE.exists():
        return dict(json.loads(CREDENTIALS_FILE.read_text()))
    return None


class Command(BaseCommand):
    help = (
        "Load the demo casino once: a pit, two tie-bonus tables with terminals and dealers, and staff logins."
    )

    def handle(self, *args: Any, **options: Any) -> None:
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
        ]  # fmt: skip
        staff = [
            create_staff(username="admin", role="admin", password="admin-demo-2026", now=now),  # noqa: S106
            create_staff(username="floor", role="floor_supervisor", password="floor-demo-2026", now=now),  # noqa: S106
            create_staff(username="pitboss", role="pit_boss", password="pitboss-demo-2026", now=now),  # noqa: S106
            create_staff(username="compliance", role="compliance", password="compliance-demo-2026", now=now),  # noqa: S106
        ]
        credentials = {
            "tables": [
                {"table": t.table.name, "terminal_token": t.terminal_token,
                 "dealer": {"badge": t.dealer.badge, "pin": t.dealer_pin}}
                for t in tables
            ],
            "staff": [{"username": s.user.username, "password": s.password, "role": s.role,
                       "token": s.token} for s in staff],
        }  # fmt: skip
        CREDENTIALS_FILE.parent.mkdir(parents=True, exist_ok=True)
        CREDENTIALS_FILE.write_text(json.dumps(credentials, indent=2))
        CREDENTIALS_FILE.chmod(0o600)
        self.stdout.write(f"Demo data loaded; credentials in {CREDENTIALS_FILE}.")
