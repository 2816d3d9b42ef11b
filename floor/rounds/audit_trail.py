"""The audit events of one round or shoe, as its pages list them."""

import datetime as dt

from django.db.models import QuerySet

from audit.models import AuditEvent
from audit.selectors import list_events


def subject_audit_events(
    *, table_id: int, subject_type: str, subject_id: int, start: dt.datetime, end: dt.datetime | None
) -> QuerySet[AuditEvent]:
    """The events recorded about one subject of a table, oldest first. They carry the moments the
    subject opened and closed, so bounding them by those (the end inclusive) lets the database find
    them by table and time rather than read the table's whole chain."""
    until = end + dt.timedelta(microseconds=1) if end is not None else None
    return list_events(table_id=table_id, since=start, until=until).filter(
        subject_type=subject_type, subject_id=str(subject_id)
    )
