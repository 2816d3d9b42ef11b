"""The tournament rules as pure functions (RULES.md §4): settings, standings, the prize split, the
pool's figures and the posted rules. No Django, no clock, no game named."""
