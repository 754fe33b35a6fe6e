"""End to end: the host's SerialLights and SerialLink against the simulated board on a pty."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
import serial

from firmware_bridge import legacy, wire
from firmware_bridge.exc import LinkClosed, UnknownURL
from firmware_bridge.link import Backoff, LinkState, LinkTimings, SerialLink, open_link
from firmware_bridge.patterns import BUZZ_PENALTY, PATTERNS, Pattern
from firmware_bridge.serial_lights import BoardError, SerialLights, light_body
from firmware_bridge.sim import SimulatedBoard

FAST = LinkTimings(
    retry_s=0.05,
    heartbeat_s=0.1,
    dead_after_s=0.6,
    sync_every_s=0.05,
    read_timeout_s=0.005,
    backoff=Backoff(initial=0.02, factor=2.0, maximum=0.2),
)


def wait_for(predicate, timeout: float = 5.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.005)
    return False


@pytest.fixture
def board() -> Iterator[SimulatedBoard]:
    sim = SimulatedBoard(seats=4, leds=12, sides=2, first_boot_id=0x100)
    sim.plug()
    yield sim
    sim.close()


@pytest.fixture
def lights(board: SimulatedBoard) -> Iterator[SerialLights]:
    link = SerialLink(board.path, timings=FAST, nonce=0x5150)
    lights = SerialLights(link, seats=4, sides=2)
    assert link.wait_ready(5.0)
    yield lights
    lights.close()


def test_every_pattern_lights_on_the_board_and_buttons_come_back(
    board: SimulatedBoard, lights: SerialLights
) -> None:
    link = lights.link
    assert link.board is not None and (link.board.boot_id, link.board.seats) == (0x100, 4)
    for seat, pattern in enumerate(Pattern):
        lights.set_pattern(seat % 4, pattern)
    lights.buzz(BUZZ_PENALTY)
    lights.show_score(1, 50, 100)
    assert link.wait_idle(5.0)
    expected = [(wire.T_SET_LIGHT, light_body(s % 4, p)) for s, p in enumerate(Pattern)]
    expected += [
        (wire.T_BUZZ, wire.pack_buzz(400, 0, 1)),
        (wire.T_SET_BAR, wire.pack_bar(1, 50, 100)),
    ]
    assert board.log() == expected
    lights.set_pattern(2, Pattern.TURN)
    assert wait_for(lambda: board.color(2) == (0, 255, 0))
    assert board.bars[1].pixels == [(0, 96, 0)] * 4 + [(0, 0, 0)] * 4
    board.press(2, wire.BUTTON_CONFIRM)
    board.press(0, wire.BUTTON_UNDO)
    first = lights.buttons.get(timeout=3.0)
    second = lights.buttons.get(timeout=3.0)
    assert first is not None and second is not None
    assert [(first.seat, first.button.name), (second.seat, second.button.name)] == [
        (2, "CONFIRM"),
        (0, "UNDO"),
    ]
    assert lights.buttons.get(timeout=0.1) is None  # exactly once


def test_unplug_and_replug_recovers_by_itself_without_loss_or_duplicates(
    board: SimulatedBoard, lights: SerialLights
) -> None:
    link = lights.link
    lights.set_pattern(1, Pattern.TURN)
    lights.show_score(0, 30, 100)
    assert link.wait_idle(5.0)
    board.unplug()
    assert wait_for(lambda: link.state is LinkState.CONNECTING)
    queued = [(s, p) for p in (Pattern.TRICK_WON, Pattern.OFF, Pattern.TURN) for s in (0, 2)]
    for seat, pattern in queued:
        lights.set_pattern(seat, pattern)  # queued while the board is away
    time.sleep(0.3)  # several reopen attempts fail meanwhile
    assert link.stats.open_failures >= 2
    board.plug()
    assert link.wait_idle(5.0)
    restore = [
        (wire.T_SET_LIGHT, light_body(1, Pattern.TURN)),
        (wire.T_SET_BAR, wire.pack_bar(0, 30, 100)),
    ]
    assert lights.last_restore == restore
    assert board.log(boot=2) == restore + [(wire.T_SET_LIGHT, light_body(s, p)) for s, p in queued]
    assert wait_for(lambda: [board.color(s) for s in range(4)] == [(0, 255, 0)] * 3 + [(0, 0, 0)])
    assert (link.stats.connects, link.stats.disconnects, link.stats.board_resets) == (2, 1, 2)


def test_unplug_mid_stream_loses_nothing(board: SimulatedBoard, lights: SerialLights) -> None:
    link = lights.link
    bodies = [wire.pack_bar(i % 2, i, 1000) for i in range(60)]
    for body in bodies[:30]:
        link.send(wire.T_SET_BAR, body)
    assert wait_for(lambda: len(board.log()) >= 10)
    board.unplug()  # with about twenty still to go, one perhaps in flight
    for body in bodies[30:]:
        link.send(wire.T_SET_BAR, body)
    board.plug()
    assert link.wait_idle(10.0)
    first = [body for _, body in board.log(boot=1)]
    second = [body for _, body in board.log(boot=2)][len(lights.last_restore) :]
    # every command reached a board; the only one that may have reached both is the one in
    # flight when the power went (shown on the old board, its ack lost, sent to the new one)
    assert first + second == bodies or (first + second[1:] == bodies and second[0] == first[-1])


def test_board_reset_without_unplug_is_noticed_by_its_new_boot_id(board: SimulatedBoard) -> None:
    link = SerialLink(board.path, timings=FAST, nonce=1)
    lights = SerialLights(link, seats=4)
    assert link.wait_ready(5.0)
    lights.set_pattern(3, Pattern.TURN)
    assert link.wait_idle(5.0)
    assert board.board is not None
    board.board.boot_id = 0x777  # the same port, a board that rebooted: a new HELLO
    board.board.ep.control(wire.T_HELLO, board.board.hello())
    assert wait_for(lambda: link.board is not None and link.board.boot_id == 0x777)
    assert link.wait_idle(5.0)
    assert board.log() == [(wire.T_SET_LIGHT, light_body(3, Pattern.TURN))] * 2
    lights.close()


def test_board_error_reports_reach_the_host(board: SimulatedBoard) -> None:
    link = SerialLink(board.path, timings=FAST)
    lights = SerialLights(link, seats=8)  # the table thinks it has more seats than the board
    assert link.wait_ready(5.0)
    lights.set_pattern(6, Pattern.TURN)
    assert wait_for(
        lambda: lights.board_errors == [BoardError(code=wire.ERR_BAD_SEAT, text="no seat 6")]
    )
    lights.close()
    with pytest.raises(LinkClosed):
        lights.set_pattern(0, Pattern.OFF)


def test_version_mismatch_stops_the_link() -> None:
    with SimulatedBoard(version=9) as board:
        board.plug()
        link = SerialLink(board.path, timings=FAST)
        assert wait_for(lambda: link.state is LinkState.INCOMPATIBLE)
        assert (
            str(link.error)
            == "board speaks protocol 9, this host speaks 2: update Kibic on this host"
        )
        link.send(wire.T_BUZZ, wire.pack_buzz(1, 1, 1))
        time.sleep(0.1)
        assert board.log() == [] and link.pending() == 1
        link.close()


def test_a_version_1_board_is_refused_by_name() -> None:
    with SimulatedBoard(version=1) as board:
        board.plug()
        with serial.Serial(board.path, timeout=0.2) as port:  # its boot HELLO goes unheard
            port.read(4096)
        link = SerialLink(board.path, timings=FAST)
        # the board cannot read version-2 frames: it answers the version-1 SYNC that follows
        assert wait_for(lambda: link.state is LinkState.INCOMPATIBLE)
        assert str(link.error) == (
            "board speaks protocol 1, this host speaks 2: copy this version's firmware to the"
            " board (firmware_bridge/firmware/README.md)"
        )
        assert link.board is not None and link.board.version == 1
        link.send(wire.T_BUZZ, wire.pack_buzz(1, 1, 1))
        time.sleep(0.2)
        assert board.log() == [] and link.pending() == 1
        assert link.state is LinkState.INCOMPATIBLE
        link.close()


def test_a_version_1_hello_is_not_read_once_the_board_answered_in_version_2() -> None:
    with SimulatedBoard() as board:
        board.plug()
        link = SerialLink(board.path, timings=FAST)
        assert link.wait_ready(5.0)
        decoder = link.endpoint.decoder
        refused = decoder.bad_crc
        with board._lock:  # as a damaged frame that happens to read as a version-1 HELLO
            assert board.board is not None
            board.board.uart.write(
                legacy.encode_v1_frame(wire.T_HELLO, 0, wire.pack_hello(1, 0x4B00, 4, 12))
            )
        assert wait_for(lambda: decoder.bad_crc == refused + 1)
        assert link.state is LinkState.READY and link.error is None and decoder.older == 0
        link.close()


def test_silent_board_is_dropped_by_heartbeat_and_reopened() -> None:
    with SimulatedBoard() as board:
        board.plug()
        link = SerialLink(board.path, timings=FAST)
        assert link.wait_ready(5.0)
        with board._lock:  # the board hangs: it stops answering, the port stays
            assert wait_for(lambda: link.stats.disconnects >= 1, timeout=3.0)
        assert link.wait_ready(5.0)
        assert link.stats.heartbeats_sent >= 1 and link.stats.board_resets == 1
        link.close()


def test_open_link_urls() -> None:
    link = open_link("sim://?seats=2&leds=4", timings=FAST)
    lights = SerialLights(link, seats=2)
    assert link.wait_ready(5.0)
    lights.set_pattern(1, Pattern.REVOKE_PROVEN)
    assert link.wait_idle(5.0)
    assert link.sim is not None
    assert link.sim.log() == [(wire.T_SET_LIGHT, light_body(1, Pattern.REVOKE_PROVEN))]
    lights.close()
    assert not link.sim.plugged
    with pytest.raises(UnknownURL):
        open_link("bogus://x")


def test_framing_over_pyserial_loop_url() -> None:
    port = serial.serial_for_url("loop://", timeout=0.1)
    sender, receiver = wire.Endpoint(), wire.Endpoint()
    sender.send(wire.T_SET_LIGHT, light_body(0, Pattern.DEAL_OVER))
    port.write(b"\xff\x13 noise" + sender.poll(0))
    assert receiver.feed(port.read(200), 0) == [
        (wire.T_SET_LIGHT, light_body(0, Pattern.DEAL_OVER))
    ]
    assert PATTERNS[Pattern.DEAL_OVER].repeat == 0
    port.close()


def test_importing_opens_nothing() -> None:
    code = (
        "import sys, firmware_bridge, firmware_bridge.patterns, firmware_bridge.wire;"
        "import firmware_bridge.lights;"
        "print(sorted(m for m in ('serial', 'gpiozero', 'firmware_bridge.link') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
