"""Row locks of the tournaments (STYLE.md §8). Parent first: the tournament's row, then its
entries, heats or prizes, each in pk order. Every change to a tournament's entries, heats, results
or money locks the tournament's row first, so concurrent entries never exceed `max_entries` and a
prize is paid once."""

from tournaments.models import Entry, Heat, Prize, Tournament


def lock_tournament(*, tournament_id: int) -> Tournament | None:
    return Tournament.objects.select_for_update(of=("self",)).filter(pk=tournament_id).first()


def lock_entry(*, entry_id: int) -> Entry | None:
    return Entry.objects.select_for_update(of=("self",)).filter(pk=entry_id).first()


def lock_heats(*, tournament_id: int) -> list[Heat]:
    return list(
        Heat.objects.filter(tournament_id=tournament_id).order_by("pk").select_for_update(of=("self",))
    )


def lock_prize(*, prize_id: int) -> Prize | None:
    return Prize.objects.select_for_update(of=("self",)).filter(pk=prize_id).first()
