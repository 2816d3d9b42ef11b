"""Query filters in, audit events out."""

import datetime as dt
import re
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from audit.chain import CHAIN_PATTERN

EVENT_TYPE_FILTER = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*(\.\*)?$")
MAX_BIGINT = 2**63 - 1
# A `+` in a query string arrives as a space: `...T06:00:00 00:00` means `+00:00`.
_SPACE_FOR_PLUS = re.compile(r"(\d) (\d{2}(:?\d{2})?)$")


@extend_schema_field(OpenApiTypes.DATETIME)
class AwareDateTimeField(serializers.Field):
    """An ISO 8601 date-time with an explicit UTC offset (`Z` or `+hh:mm`)."""

    default_error_messages = {
        "invalid": "Not an ISO 8601 date-time: use e.g. 2026-11-20T06:00:00-08:00 or 2026-11-20T14:00:00Z.",
        "naive": "Give a UTC offset (Z or +hh:mm; write + as %2B in a URL): the moment must be unambiguous.",
    }

    def to_internal_value(self, data: Any) -> dt.datetime:
        if not isinstance(data, str):
            self.fail("invalid")
        text = _SPACE_FOR_PLUS.sub(r"\1+\2", data.strip())
        try:
            value = parse_datetime(text)
            if value is not None and timezone.is_aware(value):
                value.astimezone(dt.UTC)  # out of range once moved to UTC?
        except (ValueError, OverflowError):
            value = None
        if value is None:
            self.fail("invalid")
        if timezone.is_naive(value):
            self.fail("naive")
        # In UTC: Python takes offsets up to 23:59, PostgreSQL only up to 15:59.
        return value.astimezone(dt.UTC)

    def to_representation(self, value: dt.datetime) -> str:
        return value.isoformat()


class EventFilterSerializer(serializers.Serializer):
    since = AwareDateTimeField(required=False, help_text="Events that occurred at or after this moment.")
    until = AwareDateTimeField(required=False, help_text="Events that occurred before this moment.")
    table = serializers.IntegerField(required=False, min_value=1, max_value=MAX_BIGINT, help_text="Table id.")
    chain = serializers.RegexField(
        CHAIN_PATTERN,
        required=False,
        max_length=32,
        error_messages={"invalid": "A chain: casino, table:<id> or tournament:<id>."},
        help_text="One chain: `casino` (events of no table or tournament), `table:<id>` or `tournament:<id>`.",
    )
    actor = serializers.CharField(
        required=False, max_length=150, allow_blank=False, help_text="A staff username or a terminal name."
    )
    event_type = serializers.RegexField(
        EVENT_TYPE_FILTER,
        required=False,
        max_length=100,
        error_messages={
            "invalid": "An event type like casino.round.settled, or a prefix like casino.round.*"
        },
        help_text="Exact event type, or a prefix ending in `.*`.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        since, until = attrs.get("since"), attrs.get("until")
        if since is not None and until is not None and since > until:
            raise serializers.ValidationError(
                {"until": "until must not be before since."}, code="invalid_range"
            )
        return attrs


class EventQuerySerializer(EventFilterSerializer):
    """The filters plus the pagination parameters, all validated up front."""

    page_size = serializers.IntegerField(required=False, min_value=1, max_value=1000)
    cursor = serializers.CharField(required=False, max_length=1000)


class ActorSerializer(serializers.Serializer):
    kind = serializers.CharField(source="actor_kind")
    terminal_id = serializers.IntegerField(allow_null=True)
    terminal_name = serializers.CharField()
    user_id = serializers.IntegerField(allow_null=True)
    username = serializers.CharField()
    role = serializers.CharField()
    dealer_id = serializers.IntegerField(allow_null=True)
    dealer_badge = serializers.CharField()


class SubjectSerializer(serializers.Serializer):
    type = serializers.CharField(source="subject_type")
    id = serializers.CharField(source="subject_id")
    label = serializers.CharField(source="subject_label")  # type: ignore[assignment]


class AuditEventOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    chain = serializers.CharField(
        help_text="`casino`, `table:<id>` or `tournament:<id>`: the hash chain the event is in."
    )
    seq = serializers.IntegerField(help_text="The event's position in its chain, from 1.")
    kind = serializers.CharField()
    event_type = serializers.CharField()
    occurred_at = serializers.DateTimeField()
    recorded_at = serializers.DateTimeField()
    actor = ActorSerializer(source="*")
    table = serializers.IntegerField(source="table_id", allow_null=True)
    table_name = serializers.CharField()
    subject = SubjectSerializer(source="*")
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)
    detail = serializers.CharField()
    request_id = serializers.CharField()
    idempotency_key = serializers.CharField()
    client_address = serializers.CharField()
    prev_hash = serializers.CharField()
    hash = serializers.CharField()
    hash_format = serializers.IntegerField(
        help_text="The canonical form hashed: 2, or 1 for the oldest events."
    )


class BrokenLinkSerializer(serializers.Serializer):
    chain = serializers.CharField()
    seq = serializers.IntegerField()
    id = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField()
    detail = serializers.CharField()


class ChainOutputSerializer(serializers.Serializer):
    chain = serializers.CharField()
    ok = serializers.BooleanField()
    events = serializers.IntegerField(help_text="Events verified (before the break, when broken).")
    head_seq = serializers.IntegerField(required=False, allow_null=True, help_text="When ok: the last event.")
    head = serializers.CharField(required=False, help_text="When ok: the hash of the last event.")
    broken_at = BrokenLinkSerializer(required=False, help_text="When broken: where.")


class AnchorProblemSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    reason = serializers.CharField()
    detail = serializers.CharField()


class AnchorsOutputSerializer(serializers.Serializer):
    checked = serializers.IntegerField(help_text="Recorded anchors checked.")
    broken = AnchorProblemSerializer(many=True, help_text="Anchors that no longer hash to their digest.")


class VerifyOutputSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    events = serializers.IntegerField(required=False, help_text="When ok: the number of events verified.")
    head = serializers.CharField(
        required=False, help_text="When ok: the digest of all chain heads, as an anchor would record it."
    )
    events_checked = serializers.IntegerField(
        required=False, help_text="When broken: events verified before it."
    )
    broken_at = BrokenLinkSerializer(required=False, help_text="When broken: the first broken link.")
    chains = ChainOutputSerializer(many=True, help_text="Each chain, in code-point order of its name.")
    anchors = AnchorsOutputSerializer()
