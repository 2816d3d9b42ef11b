"""A tournament's settings (RULES.md §4 "Set-up"; API.md `invalid_tournament` with field errors)."""

import datetime as dt
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.engine.settings import (
    DEFAULT_START_WINDOW_S,
    Deal,
    InvalidTournamentError,
    check_settings,
    heat_window_closes_at,
    settings_from_json,
)

from .terms import TERMS

NOW = dt.datetime(2026, 11, 27, 18, 0, tzinfo=dt.UTC)


def body(**changes: Any) -> dict[str, Any]:
    given_body: dict[str, Any] = {
        "name": "Friday Attack",
        "game": "solo",
        "buy_in_cents": 2000,
        "fee_cents": 500,
        "added_cents": 5000,
        "guarantee_cents": 25000,
        "max_entries": 40,
        "reentries": 1,
        "registration_closes_at": "2026-11-27T19:00:00Z",
        "heats": [{"starts_at": "2026-11-27T19:05:00Z"}, {"starts_at": "2026-11-27T19:15:00+00:00"}],
        "deal": "duplicate",
        "prizes_bp": [5000, 3000, 2000],
    }
    given_body.update(changes)
    return {key: value for key, value in given_body.items() if value is not ...}


def fields_of(error: pytest.ExceptionInfo[InvalidTournamentError]) -> list[str]:
    return [item["field"] for item in error.value.errors]


def test_valid_settings_with_defaults() -> None:
    settings = check_settings(body(), terms=TERMS, now=NOW)
    assert settings.name == "Friday Attack"
    assert settings.start_window_s == DEFAULT_START_WINDOW_S == 120
    assert settings.deal is Deal.DUPLICATE
    assert settings.heats == (
        dt.datetime(2026, 11, 27, 19, 5, tzinfo=dt.UTC),
        dt.datetime(2026, 11, 27, 19, 15, tzinfo=dt.UTC),
    )
    assert settings.entry_cents == 2500
    assert settings.settings == {}
    assert heat_window_closes_at(settings, 1) == dt.datetime(2026, 11, 27, 19, 7, tzinfo=dt.UTC)


def test_settings_survive_their_json() -> None:
    settings = check_settings(body(), terms=TERMS, now=NOW)
    assert settings_from_json(settings.to_json()) == settings


def test_optional_money_defaults_to_nothing() -> None:
    settings = check_settings(
        body(fee_cents=..., added_cents=..., guarantee_cents=..., reentries=...), terms=TERMS, now=NOW
    )
    assert (settings.fee_cents, settings.added_cents, settings.guarantee_cents, settings.reentries) == (
        0,
        0,
        0,
        0,
    )


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "x" * 101}, "name"),
        ({"name": 7}, "name"),
        ({"name": "bad\x00name"}, "name"),
        ({"game": "chess"}, "game"),
        ({"game": ["solo"]}, "game"),
        ({"buy_in_cents": ...}, "buy_in_cents"),
        ({"buy_in_cents": -1}, "buy_in_cents"),
        ({"buy_in_cents": 12.5}, "buy_in_cents"),
        ({"buy_in_cents": True}, "buy_in_cents"),
        ({"buy_in_cents": "2000"}, "buy_in_cents"),
        ({"fee_cents": 10**30}, "fee_cents"),
        ({"max_entries": 0}, "max_entries"),
        ({"max_entries": ...}, "max_entries"),
        ({"reentries": -1}, "reentries"),
        ({"registration_closes_at": "2026-11-27T17:00:00Z"}, "registration_closes_at"),
        ({"registration_closes_at": "2026-11-27T19:00:00"}, "registration_closes_at"),
        ({"registration_closes_at": "tomorrow"}, "registration_closes_at"),
        ({"heats": []}, "heats"),
        ({"heats": [{"starts_at": "2026-11-27T19:05:00Z"}] * 21}, "heats"),
        ({"heats": [{"starts_at": "2026-11-27T18:55:00Z"}]}, "heats[0].starts_at"),
        ({"heats": [{"starts_at": "2026-11-27T19:05:00Z", "x": 1}]}, "heats[0]"),
        (
            {"heats": [{"starts_at": "2026-11-27T19:05:00Z"}, {"starts_at": "2026-11-27T19:06:00Z"}]},
            "heats[1].starts_at",
        ),
        ({"start_window_s": 10}, "start_window_s"),
        ({"deal": "shared"}, "deal"),
        ({"prizes_bp": [5000, 3000]}, "prizes_bp"),
        ({"prizes_bp": [3000, 5000, 2000]}, "prizes_bp"),
        ({"prizes_bp": [10000, 0]}, "prizes_bp"),
        ({"prizes_bp": "10000"}, "prizes_bp"),
        ({"settings": {"limit_s": 60}}, "settings.limit_s"),
        ({"settings": [1]}, "settings"),
        ({"bogus": 1}, "bogus"),
    ],
)
def test_each_wrong_field_is_named(changes: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidTournamentError) as refused:
        check_settings(body(**changes), terms=TERMS, now=NOW)
    assert refused.value.code == "invalid_tournament"
    assert field in fields_of(refused)


def test_every_wrong_field_is_listed_at_once() -> None:
    with pytest.raises(InvalidTournamentError) as refused:
        check_settings(body(name="", deal="x", prizes_bp=[1]), terms=TERMS, now=NOW)
    assert fields_of(refused) == ["name", "deal", "prizes_bp"]


def test_a_table_game_seats_at_most_its_seats_and_takes_no_reentries() -> None:
    with pytest.raises(InvalidTournamentError) as refused:
        check_settings(
            body(game="table", max_entries=6, reentries=1, deal="individual"), terms=TERMS, now=NOW
        )
    assert fields_of(refused) == ["max_entries", "reentries", "heats"]


def test_a_table_game_with_one_heat() -> None:
    settings = check_settings(
        body(
            game="table",
            max_entries=4,
            reentries=0,
            heats=[{"starts_at": "2026-11-27T19:05:00Z"}],
            settings={"games": 3},
        ),
        terms=TERMS,
        now=NOW,
    )
    assert settings.settings == {"games": 3}
    assert settings.max_entries == 4


def test_a_table_game_checks_its_own_settings() -> None:
    with pytest.raises(InvalidTournamentError) as refused:
        check_settings(
            body(game="table", max_entries=4, reentries=0, heats=body()["heats"][:1], settings={"games": 0}),
            terms=TERMS,
            now=NOW,
        )
    assert fields_of(refused) == ["settings.games"]


@given(
    st.one_of(
        st.none(),
        st.integers(),
        st.text(),
        st.lists(st.integers()),
        st.dictionaries(st.text(max_size=20), st.one_of(st.none(), st.integers(), st.text(), st.floats())),
    )
)
def test_any_json_is_refused_with_its_field_errors(anything: object) -> None:
    with pytest.raises(InvalidTournamentError) as refused:
        check_settings(anything, terms=TERMS, now=NOW)
    assert refused.value.errors
    assert all(error["code"] == "invalid_tournament" for error in refused.value.errors)


def test_a_prize_table_not_adding_up_says_what_it_must_and_what_it_does() -> None:
    with pytest.raises(InvalidTournamentError) as refused:
        check_settings(body(prizes_bp=[5000, 3000]), terms=TERMS, now=NOW)
    assert refused.value.errors == [
        {
            "field": "prizes_bp",
            "code": "invalid_tournament",
            "message": "The places' shares must add up to 10000 basis points (100%); these add up to 8000.",
        }
    ]
