"""Random matches played through the API from a reported shoe, every answer compared with the
independent model of RULES.md §2 (`tests.specials.model`).

SPECIALS_SIM_MATCHES sets how many matches (default 30; 300 were played for the README's figure)."""

import os
import random
from typing import Any

import pytest

from casino.engine.cards import ALL_CARDS
from tests.specials.model import MatchModel, RoundModel, dealer_total
from tests.support.api import TableActors, post

# Each request commits, as in production: one test-long transaction would hold every request's
# transaction-scoped locks until its end.
pytestmark = pytest.mark.django_db(transaction=True)

API = "/api/v1/specials"
MATCHES = int(os.environ.get("SPECIALS_SIM_MATCHES", "30"))


class Simulator:
    def __init__(self, actors: TableActors, rng: random.Random) -> None:
        self.actors = actors
        self.rng = rng
        self.shoe: list[str] = []
        self.steps = 0

    def call(self, path: str, body: dict[str, Any] | None = None, status: int = 200) -> dict[str, Any]:
        response = post(self.actors.terminal, path, body)
        assert response.status_code == status, (path, body, response.json())
        self.steps += 1
        return dict(response.json())

    def new_shoe(self) -> None:
        self.call("/api/v1/shoes/", {"mode": "reported"}, status=201)
        self.shoe = [str(card) for card in ALL_CARDS] * 6
        self.rng.shuffle(self.shoe)

    def play_match(self) -> None:
        rng = self.rng
        seats = sorted(rng.sample(range(1, 8), rng.randint(1, 7)))
        start = rng.randint(1, 4)
        players = [
            {
                "seat": seat,
                "special": rng.choice([None, "SWAP", "PLUS_ONE"]),
                "player": rng.choice([None, f"P{seat}"]),
            }
            for seat in seats
        ]
        win = start + rng.randint(1, 2)
        body = {"players": players, "start_points": start, "win_points": win, "lose_points": 0}
        match = self.call(f"{API}/matches/", body, status=201)
        specials = {p["seat"]: p["special"] for p in match["players"]}
        for asked in players:
            if asked["special"] is not None:
                assert specials[asked["seat"]] == asked["special"]
        model = MatchModel(specials, start, win, 0)
        while not model.finished:
            response = post(self.actors.terminal, f"{API}/matches/{match['id']}/rounds/")
            if response.status_code == 409 and response.json()["code"] == "no_open_shoe":
                self.new_shoe()
                continue
            assert response.status_code == 201, response.json()
            self.play_round(model, dict(response.json()))
            match = self.actors.terminal.get(f"{API}/matches/{match['id']}/").json()
            self.compare_match(match, model)

    def play_round(self, match: MatchModel, round_: dict[str, Any]) -> None:
        model = match.new_round()
        path = f"{API}/rounds/{round_['id']}"
        while True:
            compare_round(round_, model)
            need = model.needs()
            if need is None:
                break
            seq = round_["seq"]
            if need["kind"] == "card":
                card = self.shoe.pop()
                model.card(card)
                round_ = self.call(f"{path}/cards/", {"card": card, "expected_seq": seq})
            elif need["kind"] == "declare_ace":
                value = self.rng.choice([1, 11, 11])
                model.declare(need["seat"], value)
                body = {"seat": need["seat"], "action": "declare_ace", "value": value, "expected_seq": seq}
                round_ = self.call(f"{path}/actions/", body)
            else:
                action, discard = self.choose(model, need)
                model.act(need["seat"], action, discard)
                body = {"seat": need["seat"], "action": action, "expected_seq": seq}
                if discard is not None:
                    body["discard"] = discard
                round_ = self.call(f"{path}/actions/", body)
        assert round_["outcome"] == match.finish_round(model)

    def choose(self, model: RoundModel, need: dict[str, Any]) -> tuple[str, str | None]:
        hand = model.hand(need["seat"])
        allowed = need["allowed"]
        if "use_special" in allowed and self.rng.random() < 0.25:
            discard = self.rng.choice(hand.cards)[0] if hand.special == "SWAP" else None
            return "use_special", discard
        if hand.total() < 17 or self.rng.random() < 0.15:
            return "hit", None
        return "stand", None

    def compare_match(self, match: dict[str, Any], model: MatchModel) -> None:
        assert match["state"] == ("finished" if model.finished else "playing")
        assert match["rounds_played"] == model.rounds_played
        assert [(p["seat"], p["points"], p["special_used"]) for p in match["players"]] == [
            (seat, model.points[seat], model.used[seat]) for seat in sorted(model.points)
        ]
        ledger = [(e["seat"], e["delta"], e["balance"], e["reason"]) for e in match["points_ledger"]]
        assert ledger == model.ledger
        assert [e["seq"] for e in match["points_ledger"]] == list(range(1, len(ledger) + 1))
        assert (match["winners"], match["eliminated"]) == (
            (model.winners, model.eliminated) if model.finished else ([], [])
        )


def compare_round(round_: dict[str, Any], model: RoundModel) -> None:
    assert round_["state"] == model.state(), (round_, model.needs())
    assert round_["needs"] == model.needs(), round_
    visible = model.visible_dealer()
    total = dealer_total(visible)
    assert round_["dealer"] == {"cards": visible, "total": total, "bust": total > 21}
    assert round_["seats"] == [
        {
            "seat": hand.seat,
            "cards": [{"card": card, "value": value} for card, value in hand.cards],
            "discarded": hand.discarded,
            "plus_one": hand.plus_one,
            "total": hand.total(),
            "status": hand.status(),
        }
        for hand in model.hands
    ]


def test_random_matches_agree_with_the_model(specials_table: TableActors) -> None:
    simulator = Simulator(specials_table, random.Random(20261123))
    simulator.new_shoe()
    for _ in range(MATCHES):
        simulator.play_match()
    assert simulator.steps > MATCHES * 10  # whole matches were played, not just started
