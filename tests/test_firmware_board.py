"""The RP2040 firmware's logic on the host: fake UART, fake pins, fake milliseconds."""

from __future__ import annotations

import random

from firmware_bridge import wire
from firmware_bridge.firmware.kibic_board import Board
from firmware_bridge.patterns import BUZZ_REVOKE, Pattern
from firmware_bridge.serial_lights import light_body
from firmware_bridge.sim import FakePin, FakeStrip, FakeUart


class Rig:
    def __init__(self, seats: int = 2) -> None:
        self.now = 0
        self.uart = FakeUart()
        self.rings = [FakeStrip(3) for _ in range(seats)]
        self.bars = [FakeStrip(4)]
        self.buzzer = FakePin(0)
        self.pins = {(s, b): FakePin(1) for s in range(seats) for b in (1, 2)}
        self.applied: list[tuple[int, bytes]] = []
        self.board = Board(
            self.uart,
            self.rings,
            [(s, b, pin) for (s, b), pin in self.pins.items()],
            self.buzzer,
            lambda: self.now,
            0x1234,
            bars=self.bars,
            on_apply=lambda t, b: self.applied.append((t, b)),
        )
        self.host = wire.Endpoint(retry_ms=50)

    def exchange(self, ms: int = 1) -> list[tuple[int, bytes]]:
        """Host bytes to the board, one board step, board bytes back to the host."""
        self.uart.incoming += self.host.poll(self.now)
        self.board.step()
        got = self.host.feed(self.uart.take(), self.now)
        self.now += ms
        return got


def test_boot_says_hello_and_sync_is_answered() -> None:
    rig = Rig()
    rig.board.boot()
    assert rig.host.feed(rig.uart.take(), 0) == [
        (wire.T_HELLO, wire.pack_hello(wire.VERSION, 0x1234, 2, 3))
    ]
    assert [ring.writes for ring in rig.rings] == [[((0, 0, 0),) * 3]] * 2
    rig.host.control(wire.T_SYNC, wire.pack_sync(wire.VERSION, 7))
    assert rig.exchange() == [(wire.T_HELLO, wire.pack_hello(wire.VERSION, 0x1234, 2, 3))]
    rig.host.control(wire.T_HEARTBEAT)
    assert rig.exchange() == [(wire.T_HEARTBEAT, b"")]


def test_patterns_render_on_the_ring_and_flash_returns_to_base() -> None:
    rig = Rig()
    rig.board.boot()
    rig.host.send(wire.T_SET_LIGHT, light_body(0, Pattern.TURN))
    rig.exchange()
    rig.exchange()  # the ack reaches the host
    assert rig.host.pending() == 0
    rig.host.send(wire.T_SET_LIGHT, light_body(0, Pattern.TRICK_WON))
    colors = []
    for _ in range(1000):
        rig.exchange(ms=10)
        colors.append(rig.rings[0][0])
    changes = [c for i, c in enumerate(colors) if i == 0 or c != colors[i - 1]]
    blue, off, green = (0, 0, 255), (0, 0, 0), (0, 255, 0)
    assert changes == [blue, off, blue, off, blue, off, green]
    assert [w[0] for w in rig.rings[0].writes] == [
        off,
        green,
        blue,
        off,
        blue,
        off,
        blue,
        off,
        green,
    ]
    assert rig.applied == [
        (wire.T_SET_LIGHT, light_body(0, Pattern.TURN)),
        (wire.T_SET_LIGHT, light_body(0, Pattern.TRICK_WON)),
    ]


def test_duplicate_frame_is_acknowledged_again_but_applied_once() -> None:
    rig = Rig()
    frame = wire.encode_frame(wire.T_SET_LIGHT, 5, light_body(1, Pattern.TURN))
    acks = []
    for _ in range(3):
        rig.uart.incoming += frame
        rig.board.step()
        acks.append(rig.uart.take())
    assert acks == [wire.encode_frame(wire.T_ACK, 5)] * 3
    assert rig.applied == [(wire.T_SET_LIGHT, light_body(1, Pattern.TURN))]
    assert rig.board.ep.duplicates == 2


def test_new_host_session_resets_numbering() -> None:
    rig = Rig()
    body = light_body(1, Pattern.TURN)
    rig.uart.incoming += wire.encode_frame(wire.T_SET_LIGHT, 0, body)
    rig.board.step()
    rig.uart.incoming += wire.encode_frame(wire.T_SYNC, 0, wire.pack_sync(wire.VERSION, 99))
    rig.uart.incoming += wire.encode_frame(wire.T_SET_LIGHT, 0, body)  # seq 0 again: new host
    rig.board.step()
    assert rig.applied == [(wire.T_SET_LIGHT, body)] * 2


def test_buttons_are_debounced_and_sent_reliably() -> None:
    rig = Rig()
    pin = rig.pins[(1, wire.BUTTON_UNDO)]
    got: list[tuple[int, bytes]] = []
    pin.level = 0
    got += rig.exchange(ms=5)
    pin.level = 1  # a 5 ms bounce: not a press
    for _ in range(10):
        got += rig.exchange(ms=5)
    assert got == []
    pin.level = 0
    for _ in range(10):
        got += rig.exchange(ms=5)
    pin.level = 1
    for _ in range(10):
        got += rig.exchange(ms=5)
    assert got == [(wire.T_BUTTON, wire.pack_button(1, wire.BUTTON_UNDO))]
    assert rig.board.ep.pending() == 0  # the host acknowledged it


def test_bad_seat_is_reported_not_applied_and_bars_and_buzzer_draw() -> None:
    rig = Rig()
    rig.host.send(wire.T_SET_LIGHT, light_body(5, Pattern.TURN))
    rig.host.send(wire.T_SET_BAR, wire.pack_bar(0, -30, 40))
    rig.host.send(wire.T_BUZZ, wire.pack_buzz(BUZZ_REVOKE.on_ms, BUZZ_REVOKE.off_ms, 3))
    rig.host.send(wire.T_SET_BAR, wire.pack_bar(3, 1, 2))
    got = []
    for _ in range(100):
        got += rig.exchange(ms=10)
    assert got == [
        (wire.T_ERROR, wire.pack_error(wire.ERR_BAD_SEAT, "no seat 5")),
        (wire.T_ERROR, wire.pack_error(wire.ERR_BAD_SIDE, "no bar 3")),
    ]
    red, off = (96, 0, 0), (0, 0, 0)
    assert rig.bars[0].writes == [(off, red, red, red)]  # -30 of 40: 3 of 4, from the far end
    assert rig.buzzer.history == [1, 0, 1, 0, 1, 0]
    assert [t for t, _ in rig.applied] == [wire.T_SET_BAR, wire.T_BUZZ]


def test_garbage_on_the_uart_never_raises() -> None:
    rig = Rig()
    rng = random.Random(5)
    for _ in range(300):
        rig.uart.incoming += rng.randbytes(rng.randint(0, 300))
        rig.board.step()
    assert rig.applied == []
    assert len(rig.board.ep.decoder.buf) <= wire.MAX_ENCODED
