"""An amount written out as on a cheque or a fill slip: "Two thousand five hundred dollars and 00/100"."""

_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_SCALES = ((10**12, "trillion"), (10**9, "billion"), (10**6, "million"), (1000, "thousand"))


def _below_thousand(number: int) -> list[str]:
    words: list[str] = []
    hundreds, rest = divmod(number, 100)
    if hundreds:
        words += [_ONES[hundreds], "hundred"]
    if rest >= 20:
        tens, ones = divmod(rest, 10)
        words.append(_TENS[tens] + (f"-{_ONES[ones]}" if ones else ""))
    elif rest:
        words.append(_ONES[rest])
    return words


def number_in_words(number: int) -> str:
    if number < 0:
        raise ValueError("only amounts from zero are written out")
    if number == 0:
        return "zero"
    words: list[str] = []
    for scale, name in _SCALES:
        count, number = divmod(number, scale)
        if count:
            words += [number_in_words(count), name]
    words += _below_thousand(number)
    return " ".join(words)


def dollars_in_words(cents: int) -> str:
    whole, rest = divmod(cents, 100)
    text = f"{number_in_words(whole)} dollar{'s' if whole != 1 else ''} and {rest:02d}/100"
    return text[0].upper() + text[1:]
