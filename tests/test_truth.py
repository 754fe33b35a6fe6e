"""Refereeing truth (RULES.md §16), seeded and small: legal play refereed from the table alone
is never flagged, and a broken play duty is proven at the first card that proves it, with the
penalty RULES.md gives. ``benchmarks/bench_truth.py`` runs the same at scale."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

import referee.knowledge as knowledge
from kibic.cli import main
from referee.actions import Action, ActionType
from referee.cards import Card
from referee.perft import specs
from referee.registry import load_game
from referee.table_view import TableMirror
from referee.truth import check_game

DEALS = 12
NO_DUTIES = {"ruzicka", "ruzicka(otvoreno=false)", "subrosa", "subrosa(otvoreno=false)",
             "gin-rummy", "gin-rummy(oklahoma=true)"}  # fmt: skip


@pytest.mark.parametrize("spec", specs())
def test_table_referee_is_never_wrong_and_never_late(spec: str) -> None:
    report = check_game(spec, deals=DEALS, seed=7)
    assert report.legal_deals == DEALS
    assert (report.false_accusations, report.score_mismatches) == (0, 0), report.examples
    if spec in NO_DUTIES:
        assert not report.breaks_rules and report.broken_deals == 0
        return
    assert report.broken_deals == DEALS and report.no_breach < DEALS // 2
    assert report.provable > 0
    assert report.proven_on_time == report.provable, report.examples
    assert (report.proven_late, report.never_proven, report.proven_unprovable) == (0, 0, 0)
    assert report.wrong_accusations == 0
    assert report.penalty_checked == report.proven_on_time and report.penalty_wrong == 0
    assert report.ok


def test_a_referee_that_proves_late_or_never_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a referee that ignores half of the witness cards is late or silent."""
    honest = knowledge.HandKnowledge.witnessed

    def half_blind(self: knowledge.HandKnowledge, seat: int, card: Card) -> Iterator[object]:
        if card.code[0] in "AKQJ":  # court cards and aces never witness
            return
        yield from honest(self, seat, card)

    monkeypatch.setattr(knowledge.HandKnowledge, "witnessed", half_blind)
    report = check_game("veliki-satir", deals=40, seed=3)
    assert report.proven_late + report.never_proven > 0
    assert not report.ok and report.examples


def test_a_referee_that_forgets_fan_pickups_accuses_falsely(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """§16.3: a card picked up from the fan after the trick is no witness; forgetting that is
    a proof before the table could know (or a wrong accusation), which the oracle reports."""
    monkeypatch.setattr(knowledge.HandKnowledge, "acquire", lambda self, seat, card, ply: None)
    report = check_game("veliki-satir", deals=0, broken=60, seed=5)
    assert report.proven_unprovable + report.wrong_accusations > 0
    assert not report.ok


def test_the_table_sees_no_face_down_card() -> None:
    game = load_game("ulti")
    hands, setup = game.deal_cards(__import__("random").Random(4), dealer=0)
    mirror = TableMirror(game, dealer=0, hands=hands, setup=setup)
    assert mirror.table.initial_hands is None
    forehand = mirror.known.forehand
    mirror.play(Action(forehand, ActionType.BID, value="passz"))
    first, second = sorted(hands[forehand])[:2]
    mirror.play(Action(forehand, ActionType.EXCHANGE, cards=(first,)))
    assert not mirror.table.actions[1:]  # one discard is down: the table waits for both
    mirror.play(Action(forehand, ActionType.EXCHANGE, cards=(second,)))
    assert mirror.table.actions[-1] == Action(forehand, ActionType.EXCHANGE)
    gin = load_game("gin-rummy")
    hands, setup = gin.deal_cards(__import__("random").Random(4), dealer=0)
    assert (
        "stock" in setup
        and "stock" not in TableMirror(gin, dealer=0, hands=hands, setup=setup).table.setup
    )


def test_cli_prints_the_table_and_exits_0_when_clean(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["referee", "truth", "--deals", "3", "--game", "mali-satir",
                 "--game", "gin-rummy"]) == 0  # fmt: skip
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:4] == ["game", "legal", "false", "broken"]
    assert out[1].split()[:11] == ["mali-satir", "3", "0", "3", "0", "3", "3", "0", "0", "0",
                                   "3/3"]  # fmt: skip
    assert "no play duties to break" in out[2]
    assert main(["referee", "truth", "--deals", "2", "--game", "ulti", "--json"]) == 0
    (data,) = json.loads(capsys.readouterr().out)
    assert (data["spec"], data["legal_deals"], data["false_accusations"], data["ok"]) == (
        "ulti", 2, 0, True,
    )  # fmt: skip


def test_cli_bad_counts_and_unknown_games_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["referee", "truth", "--deals", "-1"]) == 2
    assert main(["referee", "truth", "--deals", "1", "--game", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
