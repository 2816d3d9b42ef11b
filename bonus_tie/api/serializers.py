"""Input and output shapes of the paytable endpoints. Outputs document the plain dicts built by
`bonus_tie.api.presenters`; the pays are checked by the service, which answers 422 with a code."""

from rest_framework import serializers

from blackjack.engine.rules import BLACKJACK_PAYS
from bonus_tie.engine.kinds import BONUS_KINDS
from bonus_tie.models import PaytableStatus
from bonus_tie.services import MAX_PAYS, MAX_REASON_LENGTH
from casino.api.fields import DeckCountField
from kernel.fields import CodeField, StrictBooleanField
from kernel.schema import SHOWS_TEXT_NO_NUL, NarrowedField

KINDS_TEXT = " ".join(kind.value for kind in BONUS_KINDS)


# The service checks these (422 with the codes in their help); the schema says what it accepts.
class PaysField(NarrowedField, serializers.DictField):
    narrowing = {
        "properties": {
            kind.value: {"type": "integer", "minimum": 1, "maximum": MAX_PAYS} for kind in BONUS_KINDS
        },
        "required": [kind.value for kind in BONUS_KINDS],
        "additionalProperties": False,
    }


class BlackjackPaysField(NarrowedField, CodeField):  # " 3:2" is `invalid_blackjack_pays`, not trimmed
    narrowing = {"enum": list(BLACKJACK_PAYS)}


class ReasonField(NarrowedField, serializers.CharField):
    # Under `allOf`: a pattern beside `type` would make the schema offer a blank string as well.
    narrowing = {"allOf": [{"pattern": SHOWS_TEXT_NO_NUL}]}


# --- inputs ------------------------------------------------------------------------------------


class PaytableProposeInput(serializers.Serializer):
    pays = PaysField(
        child=serializers.JSONField(),
        help_text=(
            f"One `N to 1` figure per bet kind ({KINDS_TEXT}), each a whole number from 1 to {MAX_PAYS}. "
            "`422` `missing_pay`, `invalid_pay`, `unknown_wager_kind` otherwise."
        ),
    )
    decks = DeckCountField(
        required=False,
        default=6,
        help_text="The shoe the report is computed for: 6 or 8 (`422` `invalid_deck_count`).",
    )
    h17 = serializers.BooleanField(required=False, default=False, help_text="Dealer hits soft 17.")
    surrender = StrictBooleanField(
        required=False, default=False, help_text="Late surrender allowed (RULES.md §1.2): `true` or `false`."
    )
    blackjack_pays = BlackjackPaysField(
        required=False,
        default="3:2",
        max_length=8,
        help_text="`3:2` or `6:5` (`422` `invalid_blackjack_pays`).",
    )


class PaytableApproveInput(serializers.Serializer):
    override_reason = serializers.CharField(
        required=False,
        default="",
        allow_blank=True,
        max_length=MAX_REASON_LENGTH,
        help_text="Required, and only allowed, when the report flags a bet (`422` `paytable_flagged`).",
    )


class PaytableRejectInput(serializers.Serializer):
    reason = ReasonField(
        allow_blank=True, max_length=MAX_REASON_LENGTH, help_text="Why (`422` `reason_required` when blank)."
    )


# --- outputs -----------------------------------------------------------------------------------


class RuleSetOutput(serializers.Serializer):
    decks = serializers.IntegerField()
    h17 = serializers.BooleanField()
    surrender = serializers.BooleanField()
    blackjack_pays = serializers.CharField()


class ReportByRulesOutput(serializers.Serializer):
    rules = RuleSetOutput(help_text="The house rules that set this report apart from the version's others.")
    house_rules = serializers.JSONField(help_text="Every house rule the report is computed for.")
    status = serializers.ChoiceField(
        choices=["ready", "pending", "unpriced"],
        help_text="`pending` while it is to be computed; `unpriced` when it never will be (a rejected "
        "version): rounds under these rules have no edge, their handle is reported as unpriced.",
    )
    house_edge = serializers.DictField(
        child=serializers.FloatField(allow_null=True),
        allow_null=True,
        help_text="The house edge per wager kind (`primary`, then the bonus kinds), once `ready`.",
    )
    flagged = serializers.ListField(
        child=serializers.CharField(), allow_null=True, help_text="Bets the steering check flags."
    )


class PaytableOutput(serializers.Serializer):
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=PaytableStatus.values)
    in_force = serializers.BooleanField(
        help_text="The newest approved version: each table's next round uses it."
    )
    pays = serializers.DictField(child=serializers.IntegerField())
    rules = serializers.JSONField(allow_null=True, help_text="The house rules the report is for.")
    proposed_by = serializers.CharField(allow_null=True)
    proposed_at = serializers.DateTimeField()
    approved_by = serializers.CharField(allow_null=True)
    approved_at = serializers.DateTimeField(allow_null=True)
    override_reason = serializers.CharField(allow_blank=True)
    rejected_by = serializers.CharField(allow_null=True)
    rejected_at = serializers.DateTimeField(allow_null=True)
    rejection_reason = serializers.CharField(allow_blank=True)
    report_status = serializers.ChoiceField(
        choices=["pending", "ready", "none"],
        help_text="`pending` while the report of a proposal is computed; `none` for a version without one.",
    )
    flagged = serializers.ListField(
        child=serializers.CharField(), allow_null=True, help_text="Bets the steering check flags."
    )
    reports_by_rules = ReportByRulesOutput(
        many=True,
        help_text="The version's reports, one per set of house rules: its own (the proposal's rules) "
        "first, then one for each other rule set a table deals it under.",
    )
    report = serializers.JSONField(
        allow_null=True,
        help_text="House-edge rows (kind, pays, win_probability, true_odds, house_edge, std_deviation, "
        "outcomes, std_error (always 0: every figure is exact), method), tie probabilities, the primary's "
        "house edge, outcome distribution and standard deviation per hand (with its model), steering "
        "rows, break-even pays and flags, the rules, and the engine's text.",
    )
