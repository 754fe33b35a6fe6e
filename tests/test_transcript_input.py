"""Malformed transcripts exit 2 with a message naming the deal, the event and the field; never
a traceback. Each case is a real transcript of ``tests/transcripts`` with one thing broken."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kibic.cli import main

HERE = Path(__file__).parent / "transcripts"


def _deal(data: dict[str, Any]) -> dict[str, Any]:
    deal: dict[str, Any] = data["deals"][0]
    return deal


def _gin_one_hand(data: dict[str, Any]) -> None:
    del _deal(data)["hands"]["1"]


def _gin_knock_joker(data: dict[str, Any]) -> None:
    _deal(data)["events"][7]["cards"][-1] = "JK"


def _satir_fans_twice(data: dict[str, Any]) -> None:
    _deal(data)["fans"]["3"][0] = "2D"  # 2D is the top of seat 0's fan


CASES: list[tuple[str, str, Callable[[dict[str, Any]], None], str]] = [
    (
        "hands-an-integer",
        "ruzicka_rz.json",
        lambda d: _deal(d).update(hands={"0": 5}),
        "deal 1: hands[0]: expected a list of cards, got int",
    ),
    (
        "hands-seat-not-a-number",
        "ruzicka_rz.json",
        lambda d: _deal(d)["hands"].update({"x": []}),
        "deal 1: hands: 'x' is not a seat number",
    ),
    (
        "fans-key-not-a-number",
        "satir_revoke.json",
        lambda d: _deal(d)["fans"].update({"north": ["AC"]}),
        "deal 1: fans: 'north' is not a seat number",
    ),
    (
        "fans-not-an-object",
        "satir_revoke.json",
        lambda d: _deal(d).update(fans=["2D"]),
        "deal 1: fans: expected an object of seat -> value, got list",
    ),
    (
        "fan-of-numbers",
        "satir_revoke.json",
        lambda d: _deal(d)["fans"].update({"0": [1, 2]}),
        "deal 1: fans[0]: a card must be a string, not int",
    ),
    (
        "fortuna-scores-a-string",
        "fortuna_second_round.json",
        lambda d: _deal(d).update(scores="15"),
        "deal 1: scores: expected an object of seat -> value, got str '15'",
    ),
    (
        "fortuna-score-a-list",
        "fortuna_second_round.json",
        lambda d: _deal(d).update(scores={"1": [15]}),
        "deal 1: scores[1]: expected an integer, got list [15]",
    ),
    (
        "fortuna-score-a-bool",
        "fortuna_second_round.json",
        lambda d: _deal(d).update(scores={"1": True}),
        "deal 1: scores[1]: expected an integer, got bool True",
    ),
    (
        "gin-hands-for-one-seat",
        "gin_knock_layoff.json",
        _gin_one_hand,
        "deal 1: hands: no hand for seat 1; give every seat's hand or none",
    ),
    (
        "gin-knock-holding-the-joker",
        "gin_table_hidden.json",
        _gin_knock_joker,
        "deal 1, event 8 (seat 0 knock [AS 2S 3S 7H 7D 7C 8C 9C TC JK]): "
        "seat 0 knock [AS 2S 3S 7H 7D 7C 8C 9C TC JK]: JK is not in the french-52 deck",
    ),
    (
        "unknown-key-in-a-deal",
        "satir_revoke.json",
        lambda d: _deal(d).update(fan={}),
        "deal 1: setup: unknown field 'fan' (this game knows: backs, centre, fans)",
    ),
    (
        "unknown-keys-in-a-deal-without-setup",
        "ruzicka_rz.json",
        lambda d: _deal(d).update(talon=[], jokers=1),
        "deal 1: setup: unknown fields 'jokers', 'talon' (this game knows: no setup fields)",
    ),
    (
        "duplicate-card-across-satir-fans",
        "satir_revoke.json",
        _satir_fans_twice,
        "deal 1: fans[3]: 2D is placed twice (also in fans[0])",
    ),
    (
        "gin-upcard-also-in-the-stock",
        "gin_knock_layoff.json",
        lambda d: _deal(d).update(upcard=_deal(d)["stock"][0]),
        "deal 1: stock: 3C is placed twice (also in upcard)",
    ),
    (
        "gin-stock-card-in-a-hand",
        "gin_knock_layoff.json",
        lambda d: _deal(d)["stock"].__setitem__(0, "AS"),
        "deal 1: stock: AS is also in seat 0's hand",
    ),
    (
        "dvoglavac-compulsory-not-a-flag",
        "dvoglavac_stara.json",
        lambda d: _deal(d).update(compulsory="yes"),
        "deal 1: compulsory: expected true or false, got str 'yes'",
    ),
    (
        "ulti-dealing-unknown",
        "ulti_rekontra_u2.json",
        lambda d: _deal(d).update(dealing="shuffle"),
        "deal 1: dealing: expected one of cut, knock, got str 'shuffle'",
    ),
]


@pytest.mark.parametrize(
    ("name", "mutate", "said"),
    [pytest.param(name, mutate, said, id=case) for case, name, mutate, said in CASES],
)
def test_malformed_transcript_exits_2_naming_deal_and_field(
    name: str,
    mutate: Callable[[dict[str, Any]], None],
    said: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = json.loads((HERE / name).read_text(encoding="utf-8"))
    mutate(data)
    bad = tmp_path / name
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert main(["referee", "replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert said in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize("name", sorted(p.name for p in HERE.glob("*.json")))
def test_every_stored_transcript_still_replays(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["referee", "replay", str(HERE / name), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["deals"]


def test_fuzz_finding_a_dvoglavi_lav_hand_short_of_a_card_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by benchmarks/bench_fuzz.py: with 8C missing from the hands, nobody could lead."""
    data = json.loads((HERE / "dvoglavi_lav_kontra.json").read_text(encoding="utf-8"))
    _deal(data)["hands"]["3"].remove("8C")
    bad = tmp_path / "short.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert main(["referee", "replay", str(bad)]) == 2
    assert "deal 1: hands: seat 3 holds 7 cards; a hand is 8" in capsys.readouterr().err
