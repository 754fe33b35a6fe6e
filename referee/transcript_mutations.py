"""Seeded mutations of transcripts, for fuzzing the referee's input checks (the fuzz test and
``benchmarks/bench_fuzz.py`` share them). A mutation starts from a valid transcript and breaks
it the ways a clumsy hand or an attacker would: keys deleted, replaced, added or retyped, cards
swapped or given copy indices, events dropped, doubled or reordered, the text truncated, a byte
flipped, a value buried in deep nesting, a number thousands of digits long.

>>> import random
>>> base = {"game": "ruzicka", "deals": [{"dealer": 3, "events": []}]}
>>> text = mutate(base, random.Random(5))
>>> isinstance(text, bytes)
True
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from typing import Any

Json = Any
Slot = tuple[Any, Any]  # (container, key or index) of one value in a JSON tree

CARD_CODES = (
    "AS", "TH", "10H", "7D", "QC", "JK", "X", "5S#1", "QC#2", "QC#3", "2C", "AD", "9S", "KS",
    "ZZ", "", "#", "S", "1S", "AS#", "as", " 8C ", "Ψ",
)  # fmt: skip
ODD_VALUES: tuple[Json, ...] = (
    None, True, False, 0, -1, 1, 2, 3, 4, 7, 99, 2**63, -(2**63), 0.5, 1.0, -0.0, 1e308,
    float("nan"), float("inf"), "", "0", "x", "deli", "play", "zatvoreno", [], {}, [[]], {"": None},
    ["AS"], {"0": []}, {"0": 5}, "a" * 5000, "\u0000", "\ud800", "é",
)  # fmt: skip
KEYS = (
    "seat", "type", "card", "cards", "value", "dealer", "hands", "events", "fans", "centre",
    "backs", "talon", "scores", "upcard", "stock", "table", "redeal", "dealing", "compulsory",
    "game", "options", "players", "deals", "zz", "", "0", "1",
)  # fmt: skip


def slots(tree: Json) -> list[Slot]:
    """Every (container, key) of the tree, depth first, the root's own children included."""
    out: list[Slot] = []
    stack: list[Json] = [tree]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, value in list(items):
            out.append((node, key))
            if isinstance(value, dict | list) and value:
                stack.append(value)
    return out


def _odd(rng: random.Random) -> Json:
    return copy.deepcopy(rng.choice(ODD_VALUES))


def delete_key(tree: Json, rng: random.Random) -> None:
    node, key = rng.choice(slots(tree))
    del node[key]


def replace_value(tree: Json, rng: random.Random) -> None:
    node, key = rng.choice(slots(tree))
    node[key] = _odd(rng)


def retype_value(tree: Json, rng: random.Random) -> None:
    node, key = rng.choice(slots(tree))
    value = node[key]
    node[key] = rng.choice(
        [[value], {"0": value}, str(value)[:200], len(str(value)), not value, None]
    )


def add_key(tree: Json, rng: random.Random) -> None:
    dicts = [tree] + [n[k] for n, k in slots(tree) if isinstance(n[k], dict)]
    rng.choice(dicts)[rng.choice(KEYS)] = _odd(rng)


def swap_cards(tree: Json, rng: random.Random) -> None:
    cards = [(n, k) for n, k in slots(tree) if isinstance(n[k], str) and _looks_like_card(n[k])]
    if len(cards) < 2:
        return
    (a, i), (b, j) = rng.sample(cards, 2)
    a[i], b[j] = b[j], a[i]


def change_card(tree: Json, rng: random.Random) -> None:
    cards = [(n, k) for n, k in slots(tree) if isinstance(n[k], str) and _looks_like_card(n[k])]
    if cards:
        node, key = rng.choice(cards)
        node[key] = rng.choice(CARD_CODES)


def reorder_events(tree: Json, rng: random.Random) -> None:
    lists = [n[k] for n, k in slots(tree) if isinstance(n[k], list) and len(n[k]) > 1]
    if not lists:
        return
    items = rng.choice(lists)
    how = rng.randrange(3)
    i = rng.randrange(len(items))
    if how == 0:
        items.insert(rng.randrange(len(items)), copy.deepcopy(items[i]))  # doubled
    elif how == 1:
        items.pop(i)  # dropped
    else:
        items.insert(rng.randrange(len(items)), items.pop(i))  # moved


def set_seat(tree: Json, rng: random.Random) -> None:
    seats = [(n, k) for n, k in slots(tree) if k in ("seat", "dealer")]
    if seats:
        node, key = rng.choice(seats)
        node[key] = rng.choice([-1, 0, 1, 2, 3, 4, 5, 1.0, "1", True, 10**18])


TREE_MUTATIONS: tuple[Callable[[Json, random.Random], None], ...] = (
    delete_key, replace_value, retype_value, add_key, swap_cards, change_card, change_card,
    reorder_events, set_seat,
)  # fmt: skip


def truncate(text: bytes, rng: random.Random) -> bytes:
    return text[: rng.randrange(len(text) + 1)]


def flip_byte(text: bytes, rng: random.Random) -> bytes:
    i = rng.randrange(len(text))
    return text[:i] + bytes([rng.randrange(256)]) + text[i + 1 :]


def deep_nesting(text: bytes, rng: random.Random) -> bytes:
    """A value (or the whole file) inside 60 to 5,000 levels of arrays or objects."""
    depth = rng.choice([60, 63, 64, 65, 200, 1000, 5000])
    opener, closer = rng.choice([(b"[", b"]"), (b'{"a":', b"}")])
    spots = [m.start() for m in re.finditer(rb":\s*", text)]
    if not spots or rng.random() < 0.3:
        return opener * depth + text + closer * depth
    at = rng.choice(spots) + 1
    end = _value_end(text, at)
    return text[:at] + opener * depth + text[at:end] + closer * depth + text[end:]


def huge_number(text: bytes, rng: random.Random) -> bytes:
    """A number replaced by one of thousands of digits (or an exponent past any float)."""
    numbers = list(re.finditer(rb"(?<![\w.\"])-?\d+(?![\w.\"])", text))
    big = rng.choice([b"9" * 4301, b"1" * 10_000, b"1e999999", b"-1e-999999", b"1" * 4300])
    if not numbers:
        return text + big
    m = rng.choice(numbers)
    return text[: m.start()] + big + text[m.end() :]


TEXT_MUTATIONS: tuple[Callable[[bytes, random.Random], bytes], ...] = (
    truncate, flip_byte, deep_nesting, huge_number,
)  # fmt: skip


def mutate(transcript: Json, rng: random.Random) -> bytes:
    """The transcript with one to three mutations, as the bytes of a JSON file."""
    tree = copy.deepcopy(transcript)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        if slots(tree):
            rng.choice(TREE_MUTATIONS)(tree, rng)
    text = json.dumps(tree, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")
    if rng.random() < 0.25:
        text = rng.choice(TEXT_MUTATIONS)(text, rng)
    return text


def _looks_like_card(text: str) -> bool:
    return 1 <= len(text) <= 5 and text[:1] in "23456789TJQKAX1" and text != "1"


def _value_end(text: bytes, start: int) -> int:
    """Where the JSON value starting near ``start`` ends (a rough scan, good enough to nest)."""
    depth = 0
    in_string = False
    i = start
    while i < len(text):
        c = text[i : i + 1]
        if in_string:
            if c == b"\\":
                i += 1
            elif c == b'"':
                in_string = False
                if depth == 0:
                    return i + 1
        elif c == b'"':
            in_string = True
        elif c in b"[{":
            depth += 1
        elif c in b"]}":
            if depth == 0:
                return i
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == b"," and depth == 0:
            return i
        i += 1
    return len(text)
