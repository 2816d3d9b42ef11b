"""The special-card points game's rules (RULES.md §2), in pure Python: no framework, no I/O.

Entry points, for the services:

- `specials.engine.table`: one call per terminal request. `start_match` (players, thresholds,
  special-deck composition, a random source) gives the opened match; `open_round` starts the
  match's next round; `play` takes the round's stored events and one request (`ReportCard`,
  `TakeAction`) and returns a `Step`: new state, new events, cards drawn from the shoe (an
  electronic shoe's upcoming cards are drawn by the engine), cut card reached, and, when the
  round finished, its `RoundSettlement` (outcomes, points-ledger entries, the match after it).
- `specials.engine.round`: the round as events (`CardDealt`, `AceDeclared`, `ActionTaken`)
  that `replay` rebuilds into an immutable `RoundState`; `needs` says what comes next;
  `describe_round` gives the engine's part of the API's round. One function per rule
  (`must_declare_ace`, `plus_one_allowed`, `dealer_must_draw`, `outcome_for`, `points_delta`, ...).
- `specials.engine.match`: `open_match`, `settle_round`, `replay_match`, `match_result`,
  `Thresholds` (`invalid_points`), the points ledger (`LedgerEntry`) and `describe_match`.
- `specials.engine.special_cards`: `SpecialCard`, `SpecialDeck` and `deal_specials`.

Cards, shoes and hand values are the blackjack engine's (`casino.engine`).
"""
