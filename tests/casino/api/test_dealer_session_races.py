"""Sign-in races with real concurrent connections: wrong PINs are counted exactly, and one dealer
signing in at several terminals at once ends up signed in at exactly one, without a deadlock."""

from collections.abc import Callable
from typing import Any

import pytest

from casino.models import Dealer, Terminal
from tests.support.api import TableActors, client_with_token, post
from tests.support.races import race

pytestmark = pytest.mark.django_db(transaction=True)

SIGN_IN = "/api/v1/terminal/sign-in/"


def test_wrong_pins_sent_at_once_are_each_counted_and_lock_the_dealer_once(
    make_table: Callable[..., TableActors],
) -> None:
    actors = make_table(signed_in=False)
    token, badge = actors.provisioned.terminal_token, actors.provisioned.dealer.badge

    answers = race(lambda i: post(client_with_token(token), SIGN_IN, {"badge": badge, "pin": f"bad{i}"}), 8)

    codes = sorted(answer.json()["code"] for answer in answers)
    assert codes == ["bad_credentials"] * 4 + ["dealer_locked"] * 4
    dealer = Dealer.objects.get(pk=actors.provisioned.dealer.pk)
    assert dealer.locked_at is not None
    assert dealer.sign_in_failures == 5  # a locked dealer's refusals are not counted against it
    assert Terminal.objects.get(pk=actors.provisioned.terminal.pk).sign_in_failures == 8


def test_one_dealer_signing_in_at_four_terminals_at_once_is_signed_in_at_one(
    make_table: Callable[..., TableActors],
) -> None:
    tables = [make_table(f"BJ-R{n}", signed_in=False) for n in range(4)]
    dealer = tables[0].provisioned
    tokens = [actors.provisioned.terminal_token for actors in tables]

    def sign_in(i: int) -> Any:
        return post(
            client_with_token(tokens[i]), SIGN_IN, {"badge": dealer.dealer.badge, "pin": dealer.dealer_pin}
        )

    answers = race(sign_in, 4)

    assert [answer.status_code for answer in answers] == [200] * 4
    assert Terminal.objects.filter(dealer_id=dealer.dealer.pk).count() == 1
