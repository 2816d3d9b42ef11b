"""The posted rules, written from the settings (RULES.md §4)."""

import datetime as dt
import hashlib

from tournaments.engine.posted_rules import posted_rules_text, rules_sha256
from tournaments.engine.settings import check_settings

from .terms import SOLITAIRE, TABLE, TERMS
from .test_settings import NOW, body


def test_the_rules_say_what_the_patron_pays_and_wins() -> None:
    settings = check_settings(body(), terms=TERMS, now=NOW)
    text = posted_rules_text(settings, SOLITAIRE)
    assert text.splitlines() == [
        "Friday Attack: a Solo tournament.",
        "Entry: $25.00 at the cage, in cash or chips ($20.00 buy-in to the prize pool, $5.00 fee to the house).",
        "The house adds $50.00 to the prize pool.",
        "Guaranteed prize pool: $250.00; the house adds any shortfall when registration closes.",
        "At most 40 entries; up to 1 re-entry per patron. Excluded patrons cannot enter.",
        "Registration closes at 2026-11-27T19:00:00+00:00.",
        "Heat 1 starts at 2026-11-27T19:05:00+00:00.",
        "Heat 2 starts at 2026-11-27T19:15:00+00:00.",
        "Each entry plays one game per heat, started within 120 seconds of the heat's start; a heat not "
        "started scores -630.",
        "Duplicate deal: every game of a heat is dealt from one committed deck order, revealed when the "
        "heat closes.",
        "Score: the sum of the entry's scores; the highest score wins. Equal scores share a place.",
        "Prizes, as shares of the pool: 1st 50%, 2nd 30%, 3rd 20%. Each place's prize is rounded down to "
        "the cent; the cents left over go to first place. Entries tied over several places share those "
        "places' prizes equally, any cent left over one each in entry-number order. With fewer entries "
        "than paid places, the unpaid share goes to first place.",
        "Results are approved by a second member of staff before any prize is paid; prizes are paid once, "
        "at the cage, and a prize at or over the reporting threshold needs the patron identified.",
    ]
    assert rules_sha256(text) == hashlib.sha256(text.encode()).hexdigest()


def test_the_same_settings_give_the_same_text_and_another_setting_another() -> None:
    settings = check_settings(body(), terms=TERMS, now=NOW)
    later = check_settings(body(registration_closes_at="2026-11-27T19:01:00Z"), terms=TERMS, now=NOW)
    assert posted_rules_text(settings, SOLITAIRE) == posted_rules_text(settings, SOLITAIRE)
    assert rules_sha256(posted_rules_text(settings, SOLITAIRE)) != rules_sha256(
        posted_rules_text(later, SOLITAIRE)
    )


def test_a_table_game_rules_seat_the_entries_and_rank_low() -> None:
    settings = check_settings(
        body(game="table", max_entries=4, reentries=0, heats=body()["heats"][:1], prizes_bp=[7450, 2550]),
        terms=TERMS,
        now=NOW,
    )
    text = posted_rules_text(settings, TABLE)
    assert "seated in entry order when registration closes" in text
    assert "the lowest score wins" in text
    assert "1st 74.5%, 2nd 25.5%" in text
    assert "no re-entries" in text
    assert settings.heats[0] == dt.datetime(2026, 11, 27, 19, 5, tzinfo=dt.UTC)
