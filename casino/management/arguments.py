"""Argument types for the operators' commands: each refuses a bad value with one plain line
(argparse reports the `ArgumentTypeError` as `<command>: error: argument --x: <message>`)."""

import argparse
from collections.abc import Callable

BIGINT_MAX = 2**63 - 1  # the largest amount a `BigIntegerField` holds


def name_of(what: str, *, max_length: int) -> Callable[[str], str]:
    """A name as people type it: not blank, no leading or trailing spaces, printable characters
    only, and short enough for its column."""

    def parse(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"{what} must not be empty")
        if text != text.strip():
            raise argparse.ArgumentTypeError(f"{what} must not start or end with a space")
        if not text.isprintable():
            raise argparse.ArgumentTypeError(f"{what} must hold printable characters only")
        if len(text) > max_length:
            raise argparse.ArgumentTypeError(
                f"{what} must be at most {max_length} characters, not {len(text)}"
            )
        return text

    return parse


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """A whole number from `low` to `high`, written in ASCII digits."""

    def parse(text: str) -> int:
        digits = text[1:] if text.startswith("-") else text
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 20:
            raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}")
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, not {value}")
        return value

    return parse
