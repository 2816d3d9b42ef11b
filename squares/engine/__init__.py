"""Blackjack Squares' rules (RULES.md §3.2) in pure Python: no framework, no clock, no I/O.

- `squares.engine.rules`: one function a rule: a line's reading (`readings`, `best_reading`) and
  value (`line_value`), a square's score (`can_cash_in`, `square_score`), the game's
  (`swaps_left`, `final_squares` at the time limit, `game_score`) and the time limit setting
  (`check_limit_s`, `invalid_game_settings`).
- `squares.engine.game`: the game as its deck order plus its move log (`Place`, `Swap`, `CashIn`,
  each with its receive time in ms): `new_game`, `place`, `swap`, `cash_in`, `apply_move`,
  `advance_clock` (the time limit acting) and `replay`; the refusals `game_over`, `time_up`,
  `not_your_turn`, `move_not_allowed`.
- `squares.engine.view`: what the API shows: `needs`, `board`, `score`, `describe`.

Cards are the blackjack engine's (`casino.engine.cards`).
"""
