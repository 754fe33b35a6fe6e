"""``kibic referee replay`` and ``games``: output, JSON shape, and exit code 2 on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kibic.cli import main

HERE = Path(__file__).parent / "transcripts"


def test_replay_json_has_tricks_violations_and_scores(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["referee", "replay", str(HERE / "satir_revoke.json"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    deal = data["deals"][0]
    assert deal["tricks"][0] == {"number": 1, "leader": 0, "winner": 2,
                                 "plays": [[0, "5S"], [1, "9S"], [2, "2H"], [3, "KS"]]}  # fmt: skip
    (v,) = deal["violations"]
    assert {k: v[k] for k in ("seat", "rule", "trick", "proven_at_trick")} == {
        "seat": 2, "rule": "follow-suit", "trick": 1, "proven_at_trick": 2}  # fmt: skip
    assert v["penalty"] == {"A": "0.0", "B": "20.0"}
    assert deal["score"] == {"A": "0.0", "B": "20.0"}
    assert data["totals"] == {"A": "0.0", "B": "20.0"}


def test_replay_text_prints_trick_by_trick(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["referee", "replay", str(HERE / "satir_revoke.json")]) == 0
    out = capsys.readouterr().out
    assert "Trick  1 (lead 0): 0:5S 1:9S 2:2H 3:KS -> seat 2" in out
    assert "VIOLATION seat 2: follow-suit at trick 1, proven at trick 2" in out


@pytest.mark.parametrize(
    "mutate,message",
    [
        (
            lambda d: d["deals"][0]["events"][1].update(card="ZZ"),
            "deal 1, event 2: unknown card 'ZZ'",
        ),
        (
            lambda d: d["deals"][0]["events"][2].update(card="5S"),
            "deal 1, event 3 (seat 1 play 5S)",
        ),
        (lambda d: d["deals"][0]["events"][1].update(card="JK"), "not in the french-52 deck"),
        (lambda d: d.update(players=3), "'players' is 3 but veliki-satir is played by 4"),
        (lambda d: d["deals"][0]["events"][1].update(seat=7), "seat 7 does not exist"),
        (lambda d: d.update(game="tarok"), "unknown game 'tarok'"),
    ],
)
def test_bad_input_exits_2_naming_the_event(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    mutate,
    message: str,  # type: ignore[no-untyped-def]
) -> None:
    data = json.loads((HERE / "satir_revoke.json").read_text())
    mutate(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert main(["referee", "replay", str(path)]) == 2
    assert message in capsys.readouterr().err


def test_malformed_json_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"game": "veliki-satir", "deals": [')
    assert main(["referee", "replay", str(path)]) == 2
    assert "malformed JSON at line 1" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested 100000 levels deep"),
        ('{"game": "ruzicka", "deals": ' + "[" * 900 + "]" * 900 + "}", "nested 901 levels deep"),
        ('{"game": "ruzicka", "options": {"x": ' + "9" * 5000 + "}}", "malformed JSON"),
        (b'{"game": "ru\xfe"}', "not UTF-8 text (byte 12)"),
    ],
    ids=["100k-brackets", "deep-deals", "huge-integer", "not-utf8"],
)
def test_json_too_deep_too_big_or_not_text_exits_2(
    content: str | bytes, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    if isinstance(content, bytes):
        bad.write_bytes(content)
    else:
        bad.write_text(content, encoding="utf-8")
    assert main(["referee", "replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_games_lists_every_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["referee", "games", "--json"]) == 0
    names = {row["name"] for row in json.loads(capsys.readouterr().out)}
    assert {"veliki-satir", "velika-anarhija", "satir-u-duginim-bojama", "mali-satir"} <= names


def test_a_finished_deal_lists_each_trick_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import random

    from referee.registry import load_game

    game = load_game("mali-satir")
    rng = random.Random(4)
    hands, setup = game.deal_cards(rng, dealer=0)
    deal = game.new_deal(dealer=0, hands=hands, setup=setup)
    while not deal.is_over:
        deal.play(rng.choice(deal.legal_actions()))
    path = tmp_path / "mali.json"
    path.write_text(json.dumps({"game": "mali-satir", "deals": [deal.to_transcript()]}))
    assert main(["referee", "replay", str(path), "--json"]) == 0
    tricks = json.loads(capsys.readouterr().out)["deals"][0]["tricks"]
    assert [t["number"] for t in tricks] == list(range(1, 9))


def test_replay_prints_rounds_modes_and_calls(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["referee", "replay", str(HERE / "ruzicka_rz.json")]) == 0
    out = capsys.readouterr().out
    assert "[I] 0:7S 1:8S 2:8H 3:9H [II] 0:TS 1:9D- 2:AD- 3:JS" in out  # the four-round trick
    assert main(["referee", "replay", str(HERE / "subrosa_prevrat.json")]) == 0
    assert "Calls: 0:declare 4-keca [AS AH AD AC]" in capsys.readouterr().out
