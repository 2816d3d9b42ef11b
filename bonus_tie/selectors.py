"""Reads of paytable versions (STYLE.md §6): querysets for lists, one row for the detail."""

from collections.abc import Sequence

from django.db.models import QuerySet

from bonus_tie.models import PaytableStatus, PaytableVersion


def _versions() -> QuerySet[PaytableVersion]:
    return PaytableVersion.objects.select_related(
        "proposed_by", "approved_by", "proposal", "proposal__rejected_by"
    )


def list_paytable_versions() -> QuerySet[PaytableVersion]:
    """Every version, newest first."""
    return _versions().order_by("-version")


def get_paytable_version(*, version: int) -> PaytableVersion | None:
    return _versions().filter(version=version).first()


def get_version_in_force() -> int | None:
    """The number of the newest approved version: the one the next round of every table uses."""
    return (
        PaytableVersion.objects.filter(status=PaytableStatus.APPROVED)
        .order_by("-version")
        .values_list("version", flat=True)
        .first()
    )


def get_paytable_in_force() -> PaytableVersion | None:
    """The newest approved version: the one the next round of every table uses."""
    return PaytableVersion.objects.filter(status=PaytableStatus.APPROVED).order_by("-version").first()


def list_versions_missing_report(*, statuses: Sequence[str]) -> QuerySet[PaytableVersion]:
    """Versions in `statuses` that have no report yet, oldest first."""
    return _versions().filter(report__isnull=True, status__in=statuses).order_by("version")
