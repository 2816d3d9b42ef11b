"""The tie bonus registered with the casino app: what the core asks of it, without importing it."""

import pytest
from django.utils import timezone

from blackjack.models import Wager
from bonus_tie.engine.paytable import DEFAULT_PAYTABLE
from bonus_tie.engine.tie_bonus import TIE_BONUS
from bonus_tie.models import PaytableStatus, PaytableVersion
from bonus_tie.side_bet import TIE_BONUS_TABLES
from casino.models import GameKind, TableLimit
from casino.side_bets import WAGER_KIND_CHOICES, side_bet_for, wager_kinds
from reports.house_edges import kind_order, kind_sort_key

KINDS_IN_ORDER = ["primary", "T17", "T18", "T19", "T20", "T21", "TBJ", "LS", "RS", "insurance"]


def test_tie_bonus_tables_offer_the_tie_bonus() -> None:
    adapter = side_bet_for(GameKind.TIE_BONUS)
    assert adapter is TIE_BONUS_TABLES
    assert adapter.side_bet is TIE_BONUS
    assert side_bet_for(GameKind.SPECIAL_POINTS) is None


def test_the_models_kind_choices_are_the_core_kinds_around_the_tie_bonus_kinds() -> None:
    assert [str(kind) for kind in wager_kinds()] == KINDS_IN_ORDER
    assert list(WAGER_KIND_CHOICES) == [(kind, kind) for kind in KINDS_IN_ORDER]
    for model in (TableLimit, Wager):
        assert [value for value, _ in model._meta.get_field("kind").flatchoices] == KINDS_IN_ORDER


def test_reports_list_the_tie_bonus_kinds_around_the_core_kinds() -> None:
    assert list(kind_order()) == KINDS_IN_ORDER
    assert kind_sort_key("XX") == (len(KINDS_IN_ORDER), "XX")  # an unknown kind comes last


@pytest.mark.django_db
def test_a_new_round_opens_under_the_newest_approved_paytable() -> None:
    now = timezone.now()
    PaytableVersion.objects.create(version=2, pays={}, status=PaytableStatus.PROPOSED, proposed_at=now)
    in_force = TIE_BONUS_TABLES.terms_in_force()
    assert in_force is not None
    v1 = PaytableVersion.objects.get(version=1)
    assert (in_force.paytable.pk, in_force.offer) == (v1.pk, TIE_BONUS.on(DEFAULT_PAYTABLE))
    assert TIE_BONUS_TABLES.terms_of(v1).version == 1


@pytest.mark.django_db
def test_no_approved_paytable_means_no_terms_in_force() -> None:
    PaytableVersion.objects.filter(status=PaytableStatus.APPROVED).update(status=PaytableStatus.REJECTED)
    assert TIE_BONUS_TABLES.terms_in_force() is None
