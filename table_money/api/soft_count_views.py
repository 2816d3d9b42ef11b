"""The count team's blind soft count (DESIGN.md, Roles: count team, two members per count).

| call | who | answer |
|---|---|---|
| `POST /api/v1/soft-counts/` `{table, gaming_day, shift, currency, markers_cents, corrects?, reason?, not_open_confirmed?}` | count team | 201 count, started with the caller's own tally |
| `POST /api/v1/soft-counts/{id}/tallies/` `{currency, markers_cents}` | count team; for a round's second tally not the member who entered its first (`403 same_member_twice`) | 201 count: complete, or its variance |

Only an ended shift (or, counting once a day, an ended gaming day) is counted: `422
count_period_running` / `count_period_in_future`. A table with no drop box in the period (not
open in it) is `422 table_not_open_in_shift` unless `not_open_confirmed`. A period has one count
at a time (`409 period_already_counted`); a count is corrected by a new one with `corrects` (its
id, same table, any period) and a `reason`. The figures of a round are in the answer only once
both its tallies are in: the second member never reads the first's. `shift` is required when the
casino counts per shift and must be left out when it counts per gaming day
(`CASINO_SOFT_COUNT_PER`); `currency` is bills by denomination in cents ({"10000": 12, "2000": 5}).
Every POST carries an Idempotency-Key.
"""

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api.authentication import Principal
from casino.api.views import IDEMPOTENCY_HEADER, actor_of, principal_of
from casino.models import StaffRole
from kernel.errors import ForbiddenError
from kernel.fields import GamingDayField, StrictIntegerField
from kernel.idempotency import idempotent
from table_money.engine.count import CountStatus
from table_money.selectors import CountRecord, get_count_record
from table_money.services import soft_counts

MAX_DENOMINATIONS = 20


class IsCountTeam(BasePermission):
    message = "Only members of the count team enter soft counts."
    code = "role_not_allowed"

    def has_permission(self, request: Request, view: Any) -> bool:
        principal = request.user
        return isinstance(principal, Principal) and principal.has_role(StaffRole.COUNT_TEAM)


class CurrencyField(serializers.DictField):
    """{"<denomination in cents>": count}; the service checks the denominations."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("child", StrictIntegerField(min_value=0, max_value=soft_counts.MAX_BILLS))
        kwargs.setdefault("help_text", 'Bills by denomination in cents, e.g. {"10000": 12, "2000": 5}.')
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> dict[str, int]:
        if isinstance(data, dict) and len(data) > MAX_DENOMINATIONS:
            raise serializers.ValidationError(f"At most {MAX_DENOMINATIONS} denominations.")
        return dict(super().to_internal_value(data))


class SoftCountTallyOutput(serializers.Serializer):
    place = serializers.IntegerField(help_text="1: the round's first tally, 2: its second")
    member = serializers.CharField()
    counted_at = serializers.DateTimeField()
    currency = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="null until both tallies of the round are in",
    )
    currency_cents = serializers.IntegerField(allow_null=True)
    markers_cents = serializers.IntegerField(allow_null=True)
    total_cents = serializers.IntegerField(allow_null=True)


class SoftCountVarianceOutput(serializers.Serializer):
    denominations = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="second less first, in cents, per bill denomination that differs",
    )
    markers_cents = serializers.IntegerField()
    total_cents = serializers.IntegerField()


class SoftCountRoundOutput(serializers.Serializer):
    round = serializers.IntegerField(help_text="1: the count, 2 and on: recounts")
    tallies = SoftCountTallyOutput(many=True)
    variance = SoftCountVarianceOutput(allow_null=True, help_text="null until both tallies are in")


class SoftCountOutput(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField()
    gaming_day = serializers.DateField()
    shift = serializers.CharField(allow_null=True, help_text="null: the whole gaming day")
    status = serializers.ChoiceField(choices=[status.value for status in CountStatus])
    total_cents = serializers.IntegerField(allow_null=True, help_text="the agreed figure of a complete count")
    counts = serializers.BooleanField(help_text="complete and not superseded: the period's counted drop")
    supersedes = serializers.IntegerField(allow_null=True)
    superseded_by = serializers.IntegerField(allow_null=True)
    correction_reason = serializers.CharField(allow_blank=True)
    rounds = SoftCountRoundOutput(many=True)


def soft_count_payload(record: CountRecord) -> dict[str, Any]:
    count = record.count
    superseded_by = record.superseded_by
    rounds = []
    for number, outcome in ((r.number, r.variance) for r in record.rounds):
        shown = outcome is not None
        rounds.append(
            {
                "round": number,
                "tallies": [
                    {
                        "place": tally.place,
                        "member": tally.member.get_username(),
                        "counted_at": tally.counted_at,
                        "currency": tally.currency if shown else None,
                        "currency_cents": tally.currency_cents if shown else None,
                        "markers_cents": tally.markers_cents if shown else None,
                        "total_cents": tally.total_cents if shown else None,
                    }
                    for tally in record.tallies_of_round(number)
                ],
                "variance": soft_counts.variance_payload(outcome) if outcome is not None else None,
            }
        )
    return {
        "id": count.pk,
        "table": count.table_id,
        "gaming_day": count.gaming_day,
        "shift": count.shift or None,
        "status": record.result.status.value,
        "total_cents": record.result.total_cents,
        "counts": record.result.counts,
        "supersedes": count.supersedes_id,
        "superseded_by": superseded_by.pk if superseded_by is not None else None,
        "correction_reason": count.correction_reason,
        "rounds": rounds,
    }


def _user(request: Request) -> Any:
    user = principal_of(request).user
    if user is None:  # the permission lets only staff users through
        raise ForbiddenError("role_not_allowed", "Only members of the count team enter soft counts.")
    return user


def _answer(count_id: int) -> Response:
    record = get_count_record(count_id=count_id)
    return Response(SoftCountOutput(soft_count_payload(record)).data, status=status.HTTP_201_CREATED)


class SoftCountCreateApi(APIView):
    permission_classes = [IsCountTeam]

    @extend_schema_serializer(component_name="SoftCountInput")
    class InputSerializer(serializers.Serializer):
        table = StrictIntegerField(min_value=1, max_value=2**63 - 1)
        gaming_day = GamingDayField()
        shift = serializers.CharField(max_length=8, required=False, allow_null=True, allow_blank=True)
        currency = CurrencyField()
        markers_cents = StrictIntegerField(
            min_value=0, max_value=soft_counts.MAX_MARKERS_CENTS, required=False
        )
        corrects = StrictIntegerField(min_value=1, max_value=2**63 - 1, required=False, allow_null=True)
        reason = serializers.CharField(
            max_length=soft_counts.MAX_REASON_LENGTH, required=False, allow_blank=True, trim_whitespace=True
        )
        not_open_confirmed = serializers.BooleanField(required=False, default=False)

    @extend_schema(
        request=InputSerializer,
        responses={201: SoftCountOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="soft_count_create",
    )
    @idempotent
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        count = soft_counts.record_soft_count(
            table_id=data["table"],
            gaming_day=data["gaming_day"],
            shift=data.get("shift") or None,
            currency=data["currency"],
            markers_cents=data.get("markers_cents", 0),
            user=_user(request),
            actor=actor_of(request),
            now=timezone.now(),
            corrects_id=data.get("corrects"),
            reason=data.get("reason", ""),
            not_open_confirmed=data["not_open_confirmed"],
        )
        return _answer(count.pk)


class SoftCountTallyApi(APIView):
    permission_classes = [IsCountTeam]

    @extend_schema_serializer(component_name="SoftCountTallyInput")
    class InputSerializer(serializers.Serializer):
        currency = CurrencyField()
        markers_cents = StrictIntegerField(
            min_value=0, max_value=soft_counts.MAX_MARKERS_CENTS, required=False
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: SoftCountOutput},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="soft_count_tally",
    )
    @idempotent
    def post(self, request: Request, count_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        count = soft_counts.record_soft_count_tally(
            count_id=count_id,
            currency=data["currency"],
            markers_cents=data.get("markers_cents", 0),
            user=_user(request),
            actor=actor_of(request),
            now=timezone.now(),
        )
        return _answer(count.pk)
