"""RP2040 entry point (MicroPython). Copied to the board with kibic_board.py and wire.py.

USB serial carries the Kibic protocol, so the REPL's Ctrl-C is turned off while it runs;
hold the seat-0 undo button at power-up to skip the protocol and keep the REPL (recovery).
Pins below are the club table's wiring; change them here for another board.
"""

import select
import sys
import time

try:
    from kibic_board import Board  # on the board
except ImportError:  # imported on the host (doc collection): nothing runs there
    from firmware_bridge.firmware.kibic_board import Board

SEATS = 4
LEDS_PER_SEAT = 12
RING_PINS = (2, 3, 4, 5)  # one NeoPixel ring per seat
BUTTON_PINS = ((10, 11), (12, 13), (14, 15), (16, 17))  # (confirm, undo) per seat
BUZZER_PIN = 18
BAR_PINS = (6, 7)  # one 8-LED strip per side
BAR_LEDS = 8


class UsbSerial:
    """Non-blocking binary reads and writes on the USB CDC serial port."""

    def __init__(self):
        self.stdin = sys.stdin.buffer
        self.stdout = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)

    def read(self):
        data = bytearray()
        while self.poller.poll(0) and len(data) < 256:
            chunk = self.stdin.read(1)
            if not chunk:
                break
            data += chunk
        return bytes(data) if data else None

    def write(self, data):
        self.stdout.write(data)


class Ticks:
    """time.ticks_ms() without the wrap-around."""  # type: ignore[attr-defined]

    def __init__(self):
        self.last = time.ticks_ms()  # type: ignore[attr-defined]
        self.total = 0

    def __call__(self):
        now = time.ticks_ms()  # type: ignore[attr-defined]
        self.total += time.ticks_diff(now, self.last)  # type: ignore[attr-defined]
        self.last = now
        return self.total


def main():
    import machine
    import micropython
    import neopixel

    buttons = []
    for seat, (confirm, undo) in enumerate(BUTTON_PINS):
        buttons.append((seat, 1, machine.Pin(confirm, machine.Pin.IN, machine.Pin.PULL_UP)))
        buttons.append((seat, 2, machine.Pin(undo, machine.Pin.IN, machine.Pin.PULL_UP)))
    if buttons[1][2].value() == 0:
        return  # recovery: leave the REPL alone
    rings = [neopixel.NeoPixel(machine.Pin(pin), LEDS_PER_SEAT) for pin in RING_PINS]
    bars = [neopixel.NeoPixel(machine.Pin(pin), BAR_LEDS) for pin in BAR_PINS]
    buzzer = machine.Pin(BUZZER_PIN, machine.Pin.OUT, value=0)
    boot_id = machine.unique_id()[-1] << 8 | (time.ticks_us() & 0xFF)  # type: ignore[attr-defined]
    board = Board(UsbSerial(), rings, buttons, buzzer, Ticks(), boot_id, bars=bars)
    micropython.kbd_intr(-1)
    board.boot()
    while True:
        board.step()
        time.sleep_ms(1)  # type: ignore[attr-defined]


if sys.platform == "rp2":
    main()
