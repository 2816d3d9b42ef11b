from collections.abc import Callable
from typing import Any

import pytest

from casino.models import GameKind
from tests.support.api import TableActors, post


@pytest.fixture
def make_specials_table(make_table: Callable[..., TableActors]) -> Callable[..., TableActors]:
    """A table running the special-card game, its dealer signed in, with an open shoe."""

    def make(name: str = "SP-01", *, mode: str = "reported", **options: Any) -> TableActors:
        actors = make_table(name, game=GameKind.SPECIAL_POINTS, **options)
        response = post(actors.terminal, "/api/v1/shoes/", {"mode": mode})
        assert response.status_code == 201, response.json()
        return actors

    return make


@pytest.fixture
def specials_table(make_specials_table: Callable[..., TableActors]) -> TableActors:
    return make_specials_table()
