"""The skill-game kit (RULES.md §3, API.md "Skill games"): what every game the service deals and
referees shares, and nothing that names one.

- `registry`: each game app registers its kind, name and engine adapter (`SkillGame`, `Adapter`).
- `models`: the game row (one deck a game of its match, each order and salt secret until its
  reveal, each commitment published), its seats (tokens hashed at rest) and its move log.
- `locks`, `selectors`, `services`: create a game, play a move, let a deadline act (exactly once,
  under the game row's lock), replay and re-score from the log alone.
- `api`, `tasks`, `management`: the endpoints, the beat task that finishes due games, and
  `rescore_game`.
"""
