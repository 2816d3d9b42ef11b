"""The hostile request corpus: malformed, mistyped and oversized variations of every POST body.

Generated deterministically from each endpoint's well-formed body (its template) by a random
generator seeded with the endpoint's name, so a failing case is the same on every run and is
named by its label.
"""

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from kernel.parsers import MAX_DEPTH

JSON = "application/json"


@dataclass(frozen=True)
class Case:
    label: str
    body: bytes
    content_type: str = JSON
    # Refused by the HTTP and JSON layer whatever the state: only a 4xx is right. Other cases
    # may be accepted (an extra field is ignored, a null is a default) or refused by a rule.
    must_refuse: bool = False
    headers: dict[str, str] = field(default_factory=dict)
    path: str | None = None  # another URL than the endpoint's own


@dataclass(frozen=True)
class Raw:
    """JSON text written into a body as it is (what `json.dumps` cannot produce)."""

    text: str


def nested(depth: int, leaf: Any = 1) -> Any:
    value = leaf
    for level in range(depth):
        value = [value] if level % 2 else {"n": value}
    return value


# Values put in place of a field, of an item, or under an extra key.
HOSTILE_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1,
    7,
    2**31,
    2**63,
    -(2**63) - 1,
    10**40,
    -(10**40),
    1.5,
    -0.0,
    1e308,
    float("inf"),
    float("nan"),
    Raw("1e99999"),
    Raw("9" * 5000),
    "",
    " ",
    "0",
    "10000",
    "true",
    "null",
    "x" * 10_000,
    "\x00",
    "A\x00S",
    "\ud800",
    "a\udfffb",
    "\U0001f4a5",
    "\u202eSA",
    "\ufeffAS",
    "' OR 1=1 --",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "%s%n",
    [],
    [1],
    [None],
    ["primary"],
    {},
    {"a": 1},
    {"\x00": 1},
    nested(10),
    nested(MAX_DEPTH + 4),
]

NOT_OBJECTS = ["[]", "null", "true", "false", "0", "-1", "1.5", '""', '"{}"', "[{}]", "[[]]", '["a", 1]']

NOT_JSON = [
    " ",
    "{",
    "}",
    "{]",
    "{'mode': 'reported'}",
    '{"a":}',
    '{"a": 1,}',
    '{"a" 1}',
    '{"a": 1}{"b": 2}',
    '{"a": 1} x',
    "NaN",
    '{"a": NaN}',
    '{"a": Infinity}',
    '{"a": -Infinity}',
    '{"a": undefined}',
    '{"a": 0x10}',
    '{"a": 01}',
    '{"a": .5}',
    '{"a": "\\x41"}',
    '{"a": "\\u12"}',
    '{"a": "tab\there"}',
    "\ufeff{}",
    "/* c */ {}",
    '{"a": 1} // c',
]

# `""` is what a request without a Content-Type header reaches Django with.
CONTENT_TYPES = [
    "",
    "text/plain",
    "text/html",
    "application/xml",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=xyz",
    "application/problem+json",
    "application/jsonp",
    "application/octet-stream",
]


def dumps(value: Any) -> bytes:
    """`value` as JSON (ASCII, so lone surrogates are escapes), with `Raw` parts written as they are."""
    raws: list[str] = []

    def placeholder(item: Any) -> Any:
        if isinstance(item, Raw):
            raws.append(item.text)
            return f"@@raw{len(raws) - 1}@@"
        if isinstance(item, dict):
            return {key: placeholder(inner) for key, inner in item.items()}
        if isinstance(item, list):
            return [placeholder(inner) for inner in item]
        return item

    text = json.dumps(placeholder(value))
    for index, raw in enumerate(raws):
        text = text.replace(f'"@@raw{index}@@"', raw)
    return text.encode("ascii")


# --- paths into a template -------------------------------------------------------------------

Path = tuple[str | int, ...]


def paths(value: Any, prefix: Path = ()) -> Iterator[Path]:
    """Every key and item position in `value`, parents before their children."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield (*prefix, key)
            yield from paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield (*prefix, index)
            yield from paths(inner, (*prefix, index))


def _copy(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _parent(body: Any, path: Path) -> Any:
    for step in path[:-1]:
        body = body[step]
    return body


def replaced(template: dict[str, Any], path: Path, value: Any) -> dict[str, Any]:
    body = _copy(template)
    _parent(body, path)[path[-1]] = value
    return body


def removed(template: dict[str, Any], path: Path) -> dict[str, Any]:
    body = _copy(template)
    del _parent(body, path)[path[-1]]
    return body


def with_extra(template: dict[str, Any], path: Path, key: str, value: Any) -> dict[str, Any]:
    """`template` with `key: value` added to the object at `path` (the body itself for `()`)."""
    body = _copy(template)
    target = body
    for step in path:
        target = target[step]
    target[key] = value
    return body


def name_of(path: Path) -> str:
    return "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in path).lstrip(".")


def _short(value: Any) -> str:
    return repr(value)[:40]


WHOLE_BODY_CASES = 36

# --- the corpus of one endpoint -----------------------------------------------------------------


def cases_for(name: str, template: dict[str, Any], *, field_cases: int, with_ids: bool) -> list[Case]:
    """The corpus of the endpoint `name`: `field_cases` sampled field variations plus the rest."""
    rng = random.Random(f"hostile:{name}")
    good = dumps(template)
    whole_body: list[Case] = []
    whole_body += [Case(f"not an object: {raw}", raw.encode(), must_refuse=True) for raw in NOT_OBJECTS]
    whole_body += [Case(f"not JSON: {raw!r}", raw.encode(), must_refuse=True) for raw in NOT_JSON]
    whole_body += [
        Case(f"content type {content_type!r}", good, content_type=content_type, must_refuse=True)
        for content_type in CONTENT_TYPES
    ]
    whole_body += list(_encoding_cases(good))
    whole_body += list(_header_cases(good))
    # The same parser reads every body: each endpoint gets its own sample of these, and all
    # endpoints together get every one several times over.
    cases = rng.sample(whole_body, WHOLE_BODY_CASES)
    cases += list(_depth_and_size_cases(template))
    if with_ids:
        cases += [
            Case(f"id {ident}", good, must_refuse=True, path=str(ident))
            for ident in (0, 2**31, 2**63, 10**30)
        ]

    positions = list(paths(template))
    containers = [(), *(p for p in positions if isinstance(_value_at(template, p), dict))]
    for position in positions:
        cases.append(Case(f"missing {name_of(position)}", dumps(removed(template, position))))
    for container in containers:
        for key in ("unexpected", "\x00", "\ud800x", "", "k" * 300):
            value = rng.choice(HOSTILE_VALUES)
            cases.append(
                Case(
                    f"extra {name_of((*container, key))!r} = {_short(value)}",
                    dumps(with_extra(template, container, key, value)),
                )
            )
    if not positions:  # no fields: every hostile value under an unknown key
        for value in HOSTILE_VALUES:
            cases.append(Case(f"extra 'x' = {_short(value)}", dumps({"x": value})))
    pairs = [(position, value) for position in positions for value in HOSTILE_VALUES]
    for position, value in rng.sample(pairs, min(field_cases, len(pairs))):
        cases.append(
            Case(f"{name_of(position)} = {_short(value)}", dumps(replaced(template, position, value)))
        )
    for _ in range(field_cases // 4 if positions else 0):  # two or three fields wrong at once
        body = _copy(template)
        chosen = rng.sample(positions, min(len(positions), rng.choice((2, 3))))
        labels = []
        for position in sorted(chosen, key=len, reverse=True):
            value = rng.choice(HOSTILE_VALUES)
            _parent(body, position)[position[-1]] = value
            labels.append(f"{name_of(position)} = {_short(value)}")
        cases.append(Case("; ".join(labels), dumps(body)))
    return cases


def _value_at(template: Any, path: Path) -> Any:
    for step in path:
        template = template[step]
    return template


def _with_first(good: bytes, member: bytes) -> bytes:
    """The object `good` with `member` (`"key": value`) written first."""
    return b"{" + member + (b"}" if good == b"{}" else b", " + good[1:])


def _encoding_cases(good: bytes) -> Iterator[Case]:
    text = good.decode("ascii")
    yield Case("UTF-16 body", text.encode("utf-16"), must_refuse=True)
    yield Case("UTF-32 body", text.encode("utf-32"), must_refuse=True)
    for label, raw in (
        ("byte 0xff", b"\xff"),
        ("truncated sequence", b"\xc3"),
        ("overlong slash", b"\xc0\xaf"),
        ("encoded surrogate", b"\xed\xa0\x80"),
        ("code point above U+10FFFF", b"\xf4\x90\x80\x80"),
    ):
        yield Case(
            f"invalid UTF-8 ({label}) in a key", _with_first(good, b'"' + raw + b'": 1'), must_refuse=True
        )
        yield Case(f"invalid UTF-8 ({label}) after the body", good + raw, must_refuse=True)
    yield Case("lone surrogate key", _with_first(good, b'"\\ud800": 1'), must_refuse=True)
    yield Case("lone low surrogate key", _with_first(good, b'"\\udc00": 1'), must_refuse=True)
    yield Case("reversed surrogate pair", _with_first(good, b'"k": "\\udc00\\ud800"'), must_refuse=True)


def _depth_and_size_cases(template: dict[str, Any]) -> Iterator[Case]:
    for depth in (MAX_DEPTH + 1, 950, 5_000, 200_000):
        raw = '{"k": ' + "[" * depth + "]" * depth + "}"
        yield Case(f"nested {depth} deep", raw.encode(), must_refuse=True)
    yield Case(
        f"a field nested {MAX_DEPTH + 1} deep",
        dumps({**template, "k": nested(MAX_DEPTH + 1)}),
        must_refuse=True,
    )
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    yield Case("body over the size limit", dumps({**template, "pad": "x" * limit}), must_refuse=True)
    yield Case(
        "Content-Length over the size limit",
        dumps(template),
        must_refuse=True,
        headers={"CONTENT_LENGTH": str(limit + 1)},
    )


def _header_cases(good: bytes) -> Iterator[Case]:
    yield Case("no Idempotency-Key", good, must_refuse=True, headers={"HTTP_IDEMPOTENCY_KEY": ""})
    yield Case(
        "Idempotency-Key too long", good, must_refuse=True, headers={"HTTP_IDEMPOTENCY_KEY": "k" * 256}
    )
    yield Case(
        "Idempotency-Key with control characters",
        good,
        must_refuse=True,
        headers={"HTTP_IDEMPOTENCY_KEY": "a\x01b"},
    )
