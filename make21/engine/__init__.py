"""Make 21's rules (RULES.md §3.3) in pure Python: no framework, no clock, no I/O.

- `make21.engine.rules`: one function a rule: card values and pile readings (`hard_total`,
  `readings`, `busts`, `makes_21`, `shown_total`), the purity sets (`is_flush`, `is_rank_set`,
  `is_run`, `purity_set`, `keeps_lock`), what a move may be (`legal_play`, `legal_double`,
  `legal_extend`, `can_double`, `can_extend`) and what it does (`play_outcome`, `double_outcome`,
  `extend_outcome`, `taker`), the turn order (`next_player`, `previous_player`, `first_player`),
  the deal (`dealer_of`, `deal`, `draw_up`), the end and the score (`game_over`, `judge`), and
  the clock's move (`automatic_move`).
- `make21.engine.game`: a match as its deck orders (one a game) plus its move log (`Play`,
  `Double`, `Extend`, `Take`, each with its seat and receive time in ms): `new_match`,
  `apply_move`, `advance_clock` (the turn clock moving for the seats) and `replay`; the refusals
  `game_over`, `time_up`, `not_your_turn`, `card_not_in_hand`, `move_not_allowed`.
- `make21.engine.view`: what the API shows each caller: `needs`, `board`, `hand`, `score`,
  `record`, `describe`.

Cards are the blackjack engine's (`casino.engine.cards`).
"""
