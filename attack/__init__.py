"""Blackjack Attack (RULES.md §3.1): a one-player skill game of four columns against a 300-second clock."""
