"""Seat lights, buzzer, buttons and score bars straight on the Pi's GPIO, with gpiozero.

The pin factory is an argument (``None`` lets gpiozero choose, by ``GPIOZERO_PIN_FACTORY``,
when the lights are built, never at import). Patterns are played by :meth:`GpioLights.tick`,
which a background thread calls every ``tick_s``; tests pass ``start=False`` and a fake clock
and call ``tick()`` themselves, so the pins' histories are exact.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpiozero import PWMLED, RGBLED, Button, Buzzer, LEDBarGraph

from firmware_bridge import wire
from firmware_bridge.lights import ButtonHub, SeatButton, check_seat, check_side
from firmware_bridge.patterns import PATTERNS, BuzzSpec, Layer, Pattern

log = logging.getLogger(__name__)

Color = tuple[int, int, int]
Steps = list[tuple[int, int, int, int]]


@dataclass(frozen=True, slots=True)
class SeatPins:
    """A seat's pins: ``light`` is one PWM pin (a single LED) or three (an RGB LED)."""

    light: int | tuple[int, int, int]
    confirm: int | None = None
    undo: int | None = None


@dataclass(frozen=True, slots=True)
class GpioPins:
    """The table's GPIO wiring (BCM numbers), as the table's configuration gives it."""

    seats: tuple[SeatPins, ...]
    buzzer: int | None = None
    bars: tuple[tuple[int, ...], ...] = ()
    bounce_s: float | None = 0.02
    # seat lights lit by a high pin (common-cathode RGB LEDs); False for common-anode ones,
    # whose pins sink the current and light when low
    lights_active_high: bool = True
    # a seat button held this long calls the director; a shorter press then counts when the
    # button is let go (not when pressed, so a long press never also undoes or confirms).
    # None: no long press, a press counts at once
    hold_s: float | None = None


class _Player:
    """A pattern being played from ``start`` (seconds)."""

    __slots__ = ("steps", "repeat", "start")

    def __init__(self, steps: Steps, repeat: int, start: float) -> None:
        self.steps = steps
        self.repeat = repeat
        self.start = start

    def color(self, now: float) -> Color | None:
        return wire.pattern_color(self.steps, self.repeat, round((now - self.start) * 1000))


class GpioLights:
    """:class:`~firmware_bridge.lights.Lights` on gpiozero devices.

    Each seat has an RGBLED (or a PWMLED) and optional confirm and undo Buttons; the table
    has an optional Buzzer and one LEDBarGraph per score side.
    """

    def __init__(
        self,
        pins: GpioPins,
        *,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
        tick_s: float = 0.01,
        start: bool = True,
    ) -> None:
        self.seats = len(pins.seats)
        self.sides = len(pins.bars)
        self.buttons = ButtonHub()
        self._clock = clock
        self._tick_s = tick_s
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._devices: list[Any] = []
        self.lights: list[RGBLED | PWMLED] = []
        self.seat_buttons: list[Button] = []
        self.bars: list[LEDBarGraph] = []
        self.buzzer: Buzzer | None = None
        try:
            for seat, seat_pins in enumerate(pins.seats):
                self.lights.append(
                    self._light(seat_pins.light, pins.lights_active_high, pin_factory)
                )
                for pin, button in (
                    (seat_pins.confirm, SeatButton.CONFIRM),
                    (seat_pins.undo, SeatButton.UNDO),
                ):
                    if pin is not None:
                        self.seat_buttons.append(self._button(pin, seat, button, pins, pin_factory))
            if pins.buzzer is not None:
                self.buzzer = self._own(Buzzer(pins.buzzer, pin_factory=pin_factory))
            for bar_pins in pins.bars:
                self.bars.append(
                    self._own(LEDBarGraph(*bar_pins, pwm=False, pin_factory=pin_factory))
                )
        except Exception:
            self._close_devices()
            raise
        now = clock()
        off = PATTERNS[Pattern.OFF]
        self._base = [_Player(off.wire_steps(), 0, now) for _ in range(self.seats)]
        self._flash: list[_Player | None] = [None] * self.seats
        self._shown: list[Color | None] = [(0, 0, 0)] * self.seats
        self._beep: _Player | None = None
        self._buzzing = False
        if start:
            self.start()

    def _own(self, device: Any) -> Any:
        self._devices.append(device)
        return device

    def _light(self, pins: int | tuple[int, int, int], active_high: bool,
               factory: Any) -> RGBLED | PWMLED:  # fmt: skip
        if isinstance(pins, int):
            return self._own(PWMLED(pins, active_high=active_high, pin_factory=factory))  # type: ignore[no-any-return]
        red, green, blue = pins
        return self._own(  # type: ignore[no-any-return]
            RGBLED(red, green, blue, active_high=active_high, pin_factory=factory)
        )

    def _button(
        self, pin: int, seat: int, button: SeatButton, pins: GpioPins, factory: Any
    ) -> Button:
        hold = pins.hold_s
        device: Button = self._own(
            Button(
                pin,
                pull_up=True,
                bounce_time=pins.bounce_s,
                pin_factory=factory,
                hold_time=hold if hold is not None else 1.0,
            )
        )
        if hold is None:

            def pressed() -> None:
                self.buttons.publish(seat, button)

            device.when_pressed = pressed
            return device
        was_held = [False]

        def down() -> None:
            was_held[0] = False

        def held() -> None:
            was_held[0] = True
            self.buttons.publish(seat, button, held=True)

        def up() -> None:
            if not was_held[0]:
                self.buttons.publish(seat, button)

        device.when_pressed = down
        device.when_held = held
        device.when_released = up
        return device

    # -- Lights ------------------------------------------------------------------------------

    def set_pattern(self, seat: int, pattern: Pattern) -> None:
        check_seat(seat, self.seats)
        spec = PATTERNS[pattern]
        with self._lock:
            player = _Player(spec.wire_steps(), spec.repeat, self._clock())
            if spec.layer is Layer.FLASH:
                self._flash[seat] = player
            else:
                self._base[seat] = player
                self._flash[seat] = None

    def buzz(self, spec: BuzzSpec) -> None:
        with self._lock:
            self._beep = _Player(spec.wire_steps(), spec.count, self._clock())

    def show_score(self, side: int, value: int, target: int) -> None:
        check_side(side, self.sides)
        with self._lock:
            bar = self.bars[side]
            count = len(bar)
            bar.value = wire.bar_lit(value, target, count) / count

    def tick(self) -> None:
        """Bring every light and the buzzer up to date with the clock (writes only changes)."""
        with self._lock:
            now = self._clock()
            for seat in range(self.seats):
                color = None
                flash = self._flash[seat]
                if flash is not None:
                    color = flash.color(now)
                    if color is None:
                        self._flash[seat] = None
                if color is None:
                    color = self._base[seat].color(now) or (0, 0, 0)
                if color != self._shown[seat]:
                    self._shown[seat] = color
                    self._write(self.lights[seat], color)
            if self.buzzer is not None:
                on = False
                if self._beep is not None:
                    beep = self._beep.color(now)
                    if beep is None:
                        self._beep = None
                    else:
                        on = beep[0] > 0
                if on != self._buzzing:
                    self._buzzing = on
                    self.buzzer.value = 1 if on else 0

    @staticmethod
    def _write(light: RGBLED | PWMLED, color: Color) -> None:
        red, green, blue = color
        if isinstance(light, RGBLED):
            light.color = (red / 255, green / 255, blue / 255)
        else:
            light.value = max(red, green, blue) / 255

    def shown(self, seat: int) -> Color | None:
        """The colour last written to ``seat``'s light."""
        return self._shown[seat]

    # -- thread and closing ------------------------------------------------------------------

    def start(self) -> None:
        """Start the background thread that calls :meth:`tick`."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="kibic-gpio-lights", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self._tick_s):
            try:
                self.tick()
            except Exception:  # keep the lights thread alive; the fault is logged
                log.exception("GPIO tick failed")

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)
            self._thread = None
        with self._lock:
            for light in self.lights:
                self._write(light, (0, 0, 0))
            if self.buzzer is not None:
                self.buzzer.off()
            self._close_devices()

    def _close_devices(self) -> None:
        for device in reversed(self._devices):
            try:
                device.close()
            except Exception:  # closing must go on past one bad device
                log.exception("closing %r failed", device)
        self._devices.clear()

    def __enter__(self) -> GpioLights:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
