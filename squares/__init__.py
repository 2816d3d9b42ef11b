"""Blackjack Squares (RULES.md §3.2): a one-player skill game of five 3x3 squares and seven swaps."""
