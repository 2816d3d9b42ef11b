"""The special-card round at the table: one engine call per terminal call says what happened."""

from casino.engine.shoe import new_shoe, shoe_after
from casino.engine.table_game import ShoeInPlay
from specials.engine import table as play
from specials.engine.match import LedgerEntry, LedgerReason, MatchState, round_entries
from specials.engine.round import (
    AceDeclared,
    Action,
    ActionNeed,
    ActionTaken,
    CardDealt,
    CardToSeat,
    DeclareAceNeed,
    HeldCard,
    RoundEvent,
    RoundPhase,
    needs,
    replay,
)
from tests.specials.engine.helpers import card, cards, match_of, refused


def reported(*, dealt: str = "", penetration: int = 75) -> ShoeInPlay:
    return ShoeInPlay(
        shoe=shoe_after(decks=6, dealt=cards(dealt) if dealt else ()), penetration_percent=penetration
    )


def electronic(order: str, *, penetration: int = 75) -> ShoeInPlay:
    return ShoeInPlay(shoe=new_shoe(decks=6), penetration_percent=penetration, upcoming=cards(order))


def report(
    match: MatchState, events: list[RoundEvent], text: str, shoe: ShoeInPlay | None = None
) -> play.Step:
    step = play.play(match=match, events=events, request=play.ReportCard(card(text)), shoe=shoe or reported())
    events.extend(step.events)
    return step


def take(
    match: MatchState, events: list[RoundEvent], request: play.TakeAction, shoe: ShoeInPlay
) -> play.Step:
    step = play.play(match=match, events=events, request=request, shoe=shoe)
    events.extend(step.events)
    return step


def test_an_electronic_shoe_deals_the_opening_cards_until_a_player_must_act() -> None:
    step = play.open_round(match=match_of("SWAP"), shoe=electronic("9C 7D 8C TD 2S"))
    assert step.cards_drawn == cards("9C 7D 8C TD")
    assert step.events == (
        CardDealt(card("9C"), 1),
        CardDealt(card("7D"), None),
        CardDealt(card("8C"), 1),
        CardDealt(card("TD"), None),
    )
    assert isinstance(needs(step.state), ActionNeed)
    assert step.settlement is None


def test_an_electronic_shoe_stops_dealing_while_an_ace_waits_for_its_declaration() -> None:
    match = match_of("SWAP", "SWAP")
    step = play.open_round(match=match, shoe=electronic("9C AD 7D 8C TD 2S"))
    assert step.cards_drawn == cards("9C AD")
    assert needs(step.state) == DeclareAceNeed(2, card("AD"))
    events = list(step.events)
    # when seat 2 declares, the service deals on
    step = take(match, events, play.TakeAction(2, "declare_ace", value=1), electronic("7D 8C TD 2S"))
    assert step.events == (
        AceDeclared(2, 1),
        CardDealt(card("7D"), None),
        CardDealt(card("8C"), 1),
        CardDealt(card("TD"), 2),
        CardDealt(card("2S"), None),
    )
    assert step.state.seats[1].cards == (HeldCard(card("AD"), 1), HeldCard(card("TD"), 10))


def test_a_reported_shoe_deals_nothing_by_itself() -> None:
    step = play.open_round(match=match_of("SWAP"), shoe=reported())
    assert (step.cards_drawn, step.events) == ((), ())
    assert needs(step.state) == CardToSeat(1)


def test_a_card_reported_for_an_electronic_shoe_is_refused_with_no_card_expected() -> None:
    error = refused(
        lambda: play.play(
            match=match_of("SWAP"), events=[], request=play.ReportCard(card("9C")), shoe=electronic("9C")
        )
    )
    assert error.code == "no_card_expected"


def test_a_reported_card_the_shoe_no_longer_holds_is_refused_with_card_not_in_shoe() -> None:
    shoe = reported(dealt=" ".join(["AS"] * 6))
    error = refused(
        lambda: play.play(match=match_of("SWAP"), events=[], request=play.ReportCard(card("AS")), shoe=shoe)
    )
    assert error.code == "card_not_in_shoe"


def test_a_card_reported_while_an_ace_waits_is_refused_with_ace_value_required() -> None:
    match = match_of("SWAP")
    events: list[RoundEvent] = []
    report(match, events, "AS")
    error = refused(lambda: report(match, list(events), "9C"))
    assert error.code == "ace_value_required"


def test_a_whole_round_from_a_reported_shoe_ends_with_its_settlement() -> None:
    match = match_of("SWAP")
    events: list[RoundEvent] = []
    for text in ("TC", "9S", "6C"):
        report(match, events, text)
    step = report(match, events, "7D")
    assert step.events == (CardDealt(card("7D"), None),)
    take(match, events, play.TakeAction(1, "use_special", discard=card("6C")), reported())
    step = report(match, events, "9H")
    assert step.state.seats[0].total == 19
    step = take(match, events, play.TakeAction(1, "stand"), reported())
    # the dealer's 9 + 7 = 16 draws: no settlement yet
    assert (step.state.phase, step.settlement) == (RoundPhase.DEALER, None)
    step = report(match, events, "5H")
    assert step.state.phase is RoundPhase.FINISHED
    assert step.settlement is not None
    assert step.settlement.entries == (LedgerEntry(1, 1, -1, 4, LedgerReason.LOSE),)
    assert step.settlement.match.players[0].special_used
    assert replay(seats=round_entries(match), events=events) == step.state


def test_a_swap_on_an_electronic_shoe_draws_the_replacement_card() -> None:
    match = match_of("SWAP")
    opened = play.open_round(match=match, shoe=electronic("TC 9S 6C 7D"))
    events = list(opened.events)
    step = take(match, events, play.TakeAction(1, "use_special", discard=card("6C")), electronic("4H 8D"))
    assert step.events == (ActionTaken(1, Action.USE_SPECIAL, card("6C")), CardDealt(card("4H"), 1))
    assert step.cards_drawn == cards("4H")
    assert step.state.seats[0].discarded == cards("6C")
    assert needs(step.state) == ActionNeed(1, (Action.HIT, Action.STAND))


def test_the_cut_card_coming_out_is_reported() -> None:
    # given a 312-card shoe cut at 25% (78 cards) with 77 cards already dealt
    dealt = " ".join(["2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"] * 6 + ["2H"] * 5)
    before = report(match_of("SWAP"), [], "3H", reported(dealt=dealt[:-3], penetration=25))
    assert not before.cut_card_reached
    # when the 78th card comes out
    step = report(match_of("SWAP"), [], "3H", reported(dealt=dealt, penetration=25))
    assert step.cut_card_reached


def test_a_match_outlives_its_shoes() -> None:
    match = match_of("SWAP")
    first = play.open_round(match=match, shoe=electronic("TC 9S 9C 8D"))
    finished = take(match, list(first.events), play.TakeAction(1, "stand"), electronic(""))
    assert finished.settlement is not None
    match = finished.settlement.match
    # the next round is dealt from a new shoe
    second = play.open_round(match=match, shoe=electronic("5C 6D 7H 8S"))
    assert second.state.seats[0].cards == (HeldCard(card("5C"), 5), HeldCard(card("7H"), 7))


def test_no_round_opens_once_the_match_is_finished() -> None:
    match = match_of("SWAP", start=9)
    first = play.open_round(match=match, shoe=electronic("TC 9S 9C 8D"))
    finished = take(match, list(first.events), play.TakeAction(1, "stand"), electronic(""))
    assert finished.settlement is not None
    over = finished.settlement.match
    assert over.winners == (1,)
    error = refused(lambda: play.open_round(match=over, shoe=electronic("")))
    assert error.code == "match_finished"
