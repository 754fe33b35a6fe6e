"""Referee events drive the seat lights; seat buttons reach the runtime's log."""

from __future__ import annotations

from pathlib import Path

from firmware_bridge.lights import NullLights, SeatButton
from firmware_bridge.patterns import Pattern
from kibic.lights import LightsSink, connect_buttons
from kibic.runtime import TableRuntime
from kibic.store import EventStore
from referee.actions import Action, ActionType
from referee.cards import Card


def make(tmp_path: Path) -> tuple[TableRuntime, NullLights]:
    lights = NullLights(seats=4, sides=2)
    sink = LightsSink(lights, seats=4)
    runtime = TableRuntime(
        EventStore(tmp_path / "t.sqlite3", "t"), game="veliki-satir", sinks=[sink]
    )
    connect_buttons(runtime, lights)
    return runtime, lights


def attached(tmp_path: Path, game: str, seats: int) -> tuple[TableRuntime, NullLights]:
    """A table of ``game`` whose lights (two score bars) follow it, as ``kibic run`` wires them."""
    lights = NullLights(seats=seats, sides=2)
    sink = LightsSink(lights, seats=seats)
    runtime = TableRuntime(EventStore(tmp_path / f"{game}.sqlite3", "t"), game=game,
                           sinks=[sink])  # fmt: skip
    sink.attach(runtime)
    return runtime, lights


def test_turn_and_proven_revoke_light_the_seats(tmp_path: Path) -> None:
    runtime, lights = make(tmp_path)
    runtime.start_deal(dealer=3)
    runtime.submit(Action(0, ActionType.CONTRACT, value="zatvoreno"))
    runtime.submit(Action.play(0, "5S"))
    assert lights.patterns == {0: Pattern.OFF, 1: Pattern.TURN, 2: Pattern.OFF, 3: Pattern.OFF}
    for seat, card in ((1, "9S"), (2, "4C"), (3, "KS"), (3, "7D"), (0, "8D"), (1, "9D")):
        runtime.submit(Action.play(seat, card))
    assert not lights.buzzes
    runtime.submit(Action.play(2, "3H"))  # proves seat 2 held a heart at trick 1: must-trump
    assert lights.patterns[2] in (Pattern.REVOKE_PROVEN, Pattern.DEAL_OVER)
    assert len(lights.buzzes) >= 1


def test_seat_buttons_undo_and_confirm(tmp_path: Path) -> None:
    runtime, lights = make(tmp_path)
    runtime.start_deal(dealer=3)
    runtime.submit(Action(0, ActionType.CONTRACT, value="zatvoreno"))
    runtime.submit(Action.play(0, "5S"))
    lights.press(1, SeatButton.UNDO)
    assert runtime.deal.snapshot()["trick"]["plays"] == []  # type: ignore[union-attr]
    assert runtime.store.entries()[-1].payload["source"] == "seat 1 button"
    runtime.request_confirmation(0, [Card.parse("AS"), Card.parse("AC")], [0.6, 0.3])
    lights.press(0, SeatButton.CONFIRM)
    assert runtime.deal.snapshot()["trick"]["plays"] == [[0, "AS"]]  # type: ignore[union-attr]
    assert runtime.snapshot()["pending"] == []


def test_a_partija_won_blinks_gold_at_the_winning_sides_seats(tmp_path: Path) -> None:
    """Veliki Satir's demo, seed 7: side A (seats 0 and 2) wins the first partija at deal 6."""
    from kibic.demo import demo_transcript, play_transcript

    runtime, lights = attached(tmp_path, "veliki-satir", 4)
    play_transcript(runtime, demo_transcript("veliki-satir", deals=5, seed=7), delay=0)
    assert set(lights.patterns.values()) == {Pattern.DEAL_OVER}  # deal 5 scored, no partija
    play_transcript(runtime, demo_transcript("veliki-satir", deals=6, seed=7), delay=0)
    assert runtime.match is not None and runtime.match.partija_winners == ["A"]
    assert lights.patterns == {0: Pattern.PARTIJA_WON, 1: Pattern.DEAL_OVER,
                               2: Pattern.PARTIJA_WON, 3: Pattern.DEAL_OVER}  # fmt: skip


def test_the_score_bars_follow_the_sheet_deals_and_corrections(tmp_path: Path) -> None:
    """Each side's bar shows its running total against the partija's target after each deal,
    at once after a director's correction (the bars used to be driven by nobody), and after an
    undo that takes a deal off the sheet, when the seat lights show whose turn it is again."""
    from kibic.demo import demo_transcript, play_transcript

    runtime, lights = attached(tmp_path, "veliki-satir", 4)
    play_transcript(runtime, demo_transcript("veliki-satir", deals=2, seed=7), delay=0)
    assert runtime.match is not None
    a, b = runtime.match.totals["A"], runtime.match.totals["B"]
    assert lights.scores == {0: (max(0, a), 500), 1: (max(0, b), 500)} and a + b != 0
    runtime.adjust_score("B", 120, "a declaration not written")
    assert lights.scores[1] == (max(0, b + 120), 500)
    before = dict(lights.scores)
    runtime.undo()  # the second deal's last card: off the sheet, its seat to play again
    deal = runtime.deal
    assert deal is not None and not deal.is_over
    totals = runtime.match.totals
    assert lights.scores == {0: (max(0, totals["A"]), 500), 1: (max(0, totals["B"]), 500)}
    assert lights.scores != before
    seat = deal.to_act  # type: ignore[attr-defined]
    assert lights.patterns[seat] == Pattern.TURN
    assert {p for s, p in lights.patterns.items() if s != seat} == {Pattern.OFF}


def test_no_bars_for_a_game_of_more_sides_than_bars_or_of_no_target(tmp_path: Path) -> None:
    """Dvoglavac's four players and the Bank on two bars would show two of five: none is
    shown; Ulti plays to no target."""
    for game, players in (("dvoglavac", 4), ("ulti", 3)):
        runtime, lights = attached(tmp_path, game, players)
        runtime.adjust_score(runtime.game.sides[0], 10, "a test of the bars")
        assert lights.scores == {}


def test_a_game_without_bars_after_one_with_them_turns_them_off(tmp_path: Path) -> None:
    from kibic.demo import demo_transcript, play_transcript

    runtime, lights = attached(tmp_path, "veliki-satir", 4)
    play_transcript(runtime, demo_transcript("veliki-satir", deals=1, seed=7), delay=0)
    assert lights.scores and any(value for value, _ in lights.scores.values())
    runtime.start_game("dvoglavac", names=["Ana", "Bora", "Cica", "Dule"])
    runtime.adjust_score("0", 10, "the first event of the new game")
    assert lights.scores == {0: (0, 1), 1: (0, 1)}
