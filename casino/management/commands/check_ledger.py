from typing import Any

from django.core.management.base import CommandError

from audit.management.base import PlainErrorsCommand
from casino.ledger_checks import CHECKS, find_violations


class Command(PlainErrorsCommand):
    help = "Verify every ledger invariant; exits non-zero on any violation."

    def handle(self, *args: Any, **options: Any) -> None:
        violations = find_violations()
        for violation in violations:
            self.stderr.write(f"VIOLATION [{violation.check}]: {violation.detail}")
        if violations:
            raise CommandError(f"{len(violations)} ledger violation(s) found.")
        self.stdout.write(f"Ledger OK: {len(CHECKS)} checks passed.")
