"""Player ratings for compliance (`reports.ratings`): read-only, staff tokens of compliance
and the supervisor roles (floor supervisor, pit boss, admin); terminals and other roles get 403
`role_not_allowed`.

| call | answer |
|---|---|
| `GET /api/v1/patrons/{number}/ratings/` | the patron and every rating session, newest first, with totals; unknown patron `404 not_found` |
| `GET /api/v1/ratings/?gaming_day=2026-11-20` | every rating session of the gaming day, by patron number, with totals; a missing or malformed day `400 validation_error` |

Money is integer cents (`*_cents`); `actual_win_cents` and `theo_win_cents` are the house's
(positive when the patron lost). Handle whose terms give no house edge is left out of theo and
counted in `handle_without_edge_cents`, with the reasons in `edge_gaps`.
"""

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api.authentication import SUPERVISOR_ROLES, Principal
from casino.models import StaffRole
from kernel.errors import NotFoundError
from kernel.fields import GamingDayField
from reports.ratings import RatingSession, RatingTotals, get_day_ratings, get_patron_ratings

RATING_ROLES = (StaffRole.COMPLIANCE, *SUPERVISOR_ROLES)


class ReadsRatings(BasePermission):
    message = "Only compliance, floor supervisors, pit bosses or admins may read player ratings."
    code = "role_not_allowed"

    def has_permission(self, request: Request, view: Any) -> bool:
        principal = request.user
        return isinstance(principal, Principal) and principal.has_role(*RATING_ROLES)


# --- shapes ------------------------------------------------------------------------------------


class RatingKindOutput(serializers.Serializer):
    kind = serializers.CharField()
    wagers = serializers.IntegerField()
    handle_cents = serializers.IntegerField()
    paid_cents = serializers.IntegerField()
    actual_win_cents = serializers.IntegerField()
    theo_win_cents = serializers.IntegerField()
    handle_without_edge_cents = serializers.IntegerField()


class PatronRefOutput(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()


class RefOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class RatingSessionOutput(serializers.Serializer):
    patron = PatronRefOutput()
    table = RefOutput()
    pit = serializers.CharField()
    gaming_day = serializers.DateField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField()
    minutes_played = serializers.IntegerField()
    rounds = serializers.IntegerField()
    hands = serializers.IntegerField()
    average_bet_cents = serializers.IntegerField(
        help_text="Wagers placed as each round opened (primary and side bets) per round, half to even."
    )
    handle_cents = serializers.IntegerField(help_text="Total wagered: every settlement line's amount.")
    paid_cents = serializers.IntegerField()
    actual_win_cents = serializers.IntegerField(help_text="The house's: handle - paid.")
    theo_win_cents = serializers.IntegerField(
        help_text="The house's: handle x the edge of each round's terms."
    )
    handle_without_edge_cents = serializers.IntegerField()
    edge_gaps = serializers.ListField(child=serializers.CharField())
    paytable_versions = serializers.ListField(child=serializers.IntegerField())
    round_ids = serializers.ListField(child=serializers.IntegerField())
    by_kind = RatingKindOutput(many=True)


class RatingTotalsOutput(serializers.Serializer):
    sessions = serializers.IntegerField()
    rounds = serializers.IntegerField()
    hands = serializers.IntegerField()
    minutes_played = serializers.IntegerField()
    average_bet_cents = serializers.IntegerField(allow_null=True)
    handle_cents = serializers.IntegerField()
    paid_cents = serializers.IntegerField()
    actual_win_cents = serializers.IntegerField()
    theo_win_cents = serializers.IntegerField()
    handle_without_edge_cents = serializers.IntegerField()


class PatronRatingsOutput(serializers.Serializer):
    patron = PatronRefOutput()
    sessions = RatingSessionOutput(many=True)
    totals = RatingTotalsOutput()


class DayRatingsOutput(serializers.Serializer):
    gaming_day = serializers.DateField()
    patrons = serializers.IntegerField()
    sessions = RatingSessionOutput(many=True)
    totals = RatingTotalsOutput()


def session_payload(session: RatingSession) -> dict[str, Any]:
    return {
        "patron": {"number": session.patron_number, "name": session.patron_name},
        "table": {"id": session.table_id, "name": session.table_name},
        "pit": session.pit_name,
        "gaming_day": session.gaming_day,
        "started_at": session.started_at,
        "ended_at": session.ended_at,
        "minutes_played": session.minutes_played,
        "rounds": session.rounds,
        "hands": session.hands,
        "average_bet_cents": session.average_bet_cents,
        "handle_cents": session.handle_cents,
        "paid_cents": session.paid_cents,
        "actual_win_cents": session.actual_win_cents,
        "theo_win_cents": session.theo_win_cents,
        "handle_without_edge_cents": session.handle_without_edge_cents,
        "edge_gaps": list(session.edge_gaps),
        "paytable_versions": list(session.paytable_versions),
        "round_ids": list(session.round_ids),
        "by_kind": [
            {
                "kind": kind.kind,
                "wagers": kind.wagers,
                "handle_cents": kind.handle_cents,
                "paid_cents": kind.paid_cents,
                "actual_win_cents": kind.actual_win_cents,
                "theo_win_cents": kind.theo_win_cents,
                "handle_without_edge_cents": kind.handle_without_edge_cents,
            }
            for kind in session.kinds
        ],
    }


def totals_payload(totals: RatingTotals) -> dict[str, Any]:
    return {
        "sessions": totals.sessions,
        "rounds": totals.rounds,
        "hands": totals.hands,
        "minutes_played": totals.minutes_played,
        "average_bet_cents": totals.average_bet_cents,
        "handle_cents": totals.handle_cents,
        "paid_cents": totals.paid_cents,
        "actual_win_cents": totals.actual_win_cents,
        "theo_win_cents": totals.theo_win_cents,
        "handle_without_edge_cents": totals.handle_without_edge_cents,
    }


# --- the calls ---------------------------------------------------------------------------------


class PatronRatingsApi(APIView):
    permission_classes = [ReadsRatings]

    @extend_schema(responses={200: PatronRatingsOutput}, operation_id="patron_ratings")
    def get(self, request: Request, number: int) -> Response:
        ratings = get_patron_ratings(patron_number=number)
        if ratings is None:
            raise NotFoundError("not_found", f"No patron {number}.")
        return Response(
            PatronRatingsOutput(
                {
                    "patron": {"number": ratings.patron.number, "name": ratings.patron.name},
                    "sessions": [session_payload(session) for session in ratings.sessions],
                    "totals": totals_payload(ratings.totals),
                }
            ).data
        )


class DayRatingsQuery(serializers.Serializer):
    gaming_day = GamingDayField()


class DayRatingsApi(APIView):
    permission_classes = [ReadsRatings]

    @extend_schema(
        parameters=[OpenApiParameter("gaming_day", OpenApiTypes.DATE, OpenApiParameter.QUERY, required=True)],
        responses={200: DayRatingsOutput},
        operation_id="day_ratings",
    )
    def get(self, request: Request) -> Response:
        query = DayRatingsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        ratings = get_day_ratings(gaming_day=query.validated_data["gaming_day"])
        return Response(
            DayRatingsOutput(
                {
                    "gaming_day": ratings.gaming_day,
                    "patrons": ratings.patrons,
                    "sessions": [session_payload(session) for session in ratings.sessions],
                    "totals": totals_payload(ratings.totals),
                }
            ).data
        )
