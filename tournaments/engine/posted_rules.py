"""The posted rules of a tournament, written from its settings (RULES.md §4): the text shown to
every patron before they enter, versioned and hashed into the tournament's audit chain."""

import hashlib

from casino.engine.money import BASIS_POINTS
from tournaments.engine.settings import Deal, GameTerms, TournamentSettings


def _dollars(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"


def _percent(bp: int) -> str:
    whole, part = divmod(bp, BASIS_POINTS // 100)
    return f"{whole}%" if part == 0 else f"{whole}.{f'{part:02d}'.rstrip('0')}%"


def _ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def posted_rules_text(settings: TournamentSettings, terms: GameTerms) -> str:
    """The rules as the patron reads them; the same settings always give the same text."""
    lines = [
        f"{settings.name}: a {terms.name} tournament.",
        f"Entry: {_dollars(settings.entry_cents)} at the cage, in cash or chips "
        f"({_dollars(settings.buy_in_cents)} buy-in to the prize pool, {_dollars(settings.fee_cents)} fee to the house).",
    ]
    if settings.added_cents:
        lines.append(f"The house adds {_dollars(settings.added_cents)} to the prize pool.")
    if settings.guarantee_cents:
        lines.append(
            f"Guaranteed prize pool: {_dollars(settings.guarantee_cents)}; the house adds any shortfall "
            "when registration closes."
        )
    reentries = (
        "no re-entries"
        if settings.reentries == 0
        else f"up to {settings.reentries} re-entr{'y' if settings.reentries == 1 else 'ies'} per patron"
    )
    lines += [
        f"At most {settings.max_entries} entries; {reentries}. Excluded patrons cannot enter.",
        f"Registration closes at {settings.registration_closes_at.isoformat()}.",
    ]
    if terms.shares_a_table:
        lines.append(
            f"One table: entries are seated in entry order when registration closes; the match starts "
            f"at {settings.heats[0].isoformat()}."
        )
    else:
        for number, starts_at in enumerate(settings.heats, start=1):
            lines.append(f"Heat {number} starts at {starts_at.isoformat()}.")
        lines.append(
            f"Each entry plays one game per heat, started within {settings.start_window_s} seconds of the "
            f"heat's start; a heat not started scores {terms.no_show_score}."
        )
        if settings.deal is Deal.DUPLICATE:
            lines.append(
                "Duplicate deal: every game of a heat is dealt from one committed deck order, revealed "
                "when the heat closes."
            )
        else:
            lines.append("Individual deal: each game its own committed deck, revealed when it ends.")
    ranking = "the lowest score wins" if terms.lower_wins else "the highest score wins"
    lines.append(f"Score: the sum of the entry's scores; {ranking}. Equal scores share a place.")
    lines.append(
        "Prizes, as shares of the pool: "
        + ", ".join(
            f"{_ordinal(place)} {_percent(bp)}" for place, bp in enumerate(settings.prizes_bp, start=1)
        )
        + ". Each place's prize is rounded down to the cent; the cents left over go to first place. "
        "Entries tied over several places share those places' prizes equally, any cent left over one "
        "each in entry-number order. With fewer entries than paid places, the unpaid share goes to "
        "first place."
    )
    if settings.settings:
        lines.append(
            "Game settings: "
            + ", ".join(f"{key} {value}" for key, value in sorted(settings.settings.items()))
            + "."
        )
    lines.append(
        "Results are approved by a second member of staff before any prize is paid; prizes are paid "
        "once, at the cage, and a prize at or over the reporting threshold needs the patron identified."
    )
    return "\n".join(lines) + "\n"


def rules_sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
