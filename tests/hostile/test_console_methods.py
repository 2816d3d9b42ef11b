"""Every console page answers only the methods it is for. The test walks the floor's URL resolver,
so a page added later is covered without being named here: PUT, PATCH and DELETE are 405 on every
page, and POST is 405 on every page but those that take a form (`TAKE_A_FORM`). The method is
checked before anything else, so the answer is the same signed in or not; seven read-only pages
used to answer PUT, DELETE, PATCH and POST with 200."""

from collections.abc import Iterator
from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, reverse
from django.urls.converters import IntConverter

from floor import urls as floor_urls
from tests.support.factories import StaffFactory

pytestmark = pytest.mark.django_db

# The pages that take a POST (a form, or a button that acts); every other page only reads.
TAKE_A_FORM = frozenset(
    {
        "login",
        "logout",
        "password_change",
        "dealer_unlock",
        "cage",
        "count",
        "count_tally",
        "count_correct",
        "table_open",
        "table_close",
        "slip_request",
        "slip_approve",
        "slip_void",
        "slip_receive",
        "cage_slip_sign",
        "round_void",
        "patrons",
        "patron_identify",
        "sar_refer",
        "ctr_worksheet",
        "sar_referral",
        "rule_change_new",
        "rule_change_approve",
        "rule_change_reject",
        "rule_change_withdraw",
        "tournament_new",
        "tournament_file",
        "tournament_board_key",
        "tournament_results",
        "tournament_results_approve",
        "tournament_cancel",
        "tournament_cancel_approve",
        "tournament_entry",
        "tournament_prize_pay",
    }
)
NEVER = ("put", "patch", "delete")


def _patterns(patterns: list[Any]) -> Iterator[URLPattern]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            yield from _patterns(entry.url_patterns)
        elif isinstance(entry, URLPattern):
            yield entry


def _console_pages() -> list[tuple[str, str]]:
    """(name, path) of every floor page, its arguments filled in with a table id or a gaming day."""
    pages = []
    for pattern in _patterns(floor_urls.urlpatterns):
        assert pattern.name, f"the console page {pattern.pattern} has no name"
        kwargs = {
            name: 1 if isinstance(converter, IntConverter) else "2026-11-20"
            for name, converter in pattern.pattern.converters.items()
        }
        pages.append((pattern.name, reverse(f"floor:{pattern.name}", kwargs=kwargs)))
    return pages


PAGES = _console_pages()


def test_the_walk_finds_every_console_page() -> None:
    names = {name for name, _ in PAGES}
    assert names >= TAKE_A_FORM  # a page renamed or removed is noticed here
    assert {"home", "pit_map", "ratings_day", "rounds", "round", "rule_changes", "compliance_day"} <= names
    assert {"games", "games_day", "game", "game_rescore", "game_deck"} <= names
    assert len(PAGES) == len(names)


def _clients() -> list[tuple[str, Client]]:
    admin = StaffFactory.create(username="admin-methods", role="admin")
    signed_in = Client()
    signed_in.force_login(cast(User, admin.user))
    return [("anonymous", Client()), ("admin", signed_in)]


@pytest.mark.parametrize(("name", "path"), PAGES, ids=[name for name, _ in PAGES])
def test_a_console_page_answers_only_its_methods(name: str, path: str) -> None:
    methods = [*NEVER, *(() if name in TAKE_A_FORM else ("post",))]
    for who, client in _clients():
        for method in methods:
            answer = getattr(client, method)(path)
            assert answer.status_code == 405, (who, method.upper(), path, answer.status_code)
            allowed = {m.strip() for m in answer["Allow"].split(",")}
            assert method.upper() not in allowed, (who, method.upper(), path, allowed)
