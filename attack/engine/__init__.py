"""Blackjack Attack's rules (RULES.md §3.1) in pure Python: no framework, no clock, no I/O.

- `attack.engine.rules`: one function a rule: card values (`is_black_jack`, `hard_total`,
  `shown_total`, `reads_21`), where a card may go (`fits`, `must_bust`, `legal_columns`), what it
  does (`catch_21`, `five_card_charlie`, `black_jack_attack`, `busts`, `placement_outcome`) and the
  score (`streak_bonus`, `points`, `no_bust_bonus`, `seconds_left`, `time_bonus`).
- `attack.engine.game`: the game as its deck order plus its move log (`Place`, `Undo`, each with
  its receive time in ms): `new_game`, `place`, `undo`, `apply_move`, `advance_clock` (the
  300-second clock acting) and `replay`; the refusals `game_over`, `time_up`, `not_your_turn`,
  `move_not_allowed`.
- `attack.engine.view`: what the API shows: `needs`, `board`, `score`, `describe`.

Cards are the blackjack engine's (`casino.engine.cards`).
"""
