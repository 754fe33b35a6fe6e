"""Kibic seat-light board: the firmware's logic, free of any MicroPython-only module.

It runs on the RP2040 (``main.py`` gives it the real USB serial, NeoPixel rings and pins),
on the host in tests (fake UART and pins), and inside the simulated board that the host
talks to over a pty. One ``step()`` is one pass of the main loop: read the serial bytes,
act on each checked message once, scan the buttons, redraw what changed, write.

Everything the board shows comes from the host: patterns arrive as step lists, so the board
has no pattern table of its own. The protocol is ``wire.py``, the same module the host uses.
"""

try:
    from firmware_bridge import wire  # on the host (tests, simulated board)
except ImportError:  # on the board, wire.py sits next to this file
    import wire  # type: ignore[no-redef]

try:
    from typing import Any  # noqa: F401  (type comments only; MicroPython has no typing)
except ImportError:
    pass

OFF = (0, 0, 0)
BAR_ON = (0, 96, 0)
BAR_NEGATIVE = (96, 0, 0)


class Board:
    """The board's state and main-loop step.

    ``uart``: ``read() -> bytes | None`` (non-blocking) and ``write(bytes)``.
    ``rings``: one LED ring per seat, NeoPixel-like (``len``, item assignment, ``write()``).
    ``buttons``: ``(seat, button, pin)`` with ``pin.value()`` 0 while pressed (pull-up).
    ``buzzer``: a pin with ``value(v)``, or None. ``bars``: NeoPixel-like strips per side.
    ``ticks_ms``: a millisecond counter that does not wrap. ``on_apply(mtype, body)`` is
    called for every command acted on (the simulated board logs them). ``endpoint``: the
    link's ``wire.Endpoint`` (the simulated board passes an old protocol's).
    """

    def __init__(
        self,
        uart,
        rings,
        buttons,
        buzzer,
        ticks_ms,
        boot_id,
        bars=None,
        version=wire.VERSION,
        debounce_ms=20,
        retry_ms=50,
        on_apply=None,
        endpoint=None,
    ):
        self.uart = uart
        self.rings = rings
        self.seats = len(rings)
        self.leds = len(rings[0]) if rings else 0
        self.buttons = buttons
        self.buzzer = buzzer
        self.bars = bars or []
        self.ticks_ms = ticks_ms
        self.boot_id = boot_id & 0xFFFF
        self.version = version
        self.debounce_ms = debounce_ms
        self.on_apply = on_apply
        self.ep = endpoint or wire.Endpoint(retry_ms=retry_ms, max_queue=32)
        self.base = [[[OFF + (0,)], 0, 0] for _ in range(self.seats)]  # type: list[Any]
        self.flash = [None] * self.seats  # type: list[Any]
        self.shown = [OFF] * self.seats
        self.beep = None  # type: Any
        self.buzzing = False
        # per button: [stable pressed, raw pressed, ms of the last raw change]
        self.button_state = [[False, False, 0] for _ in buttons]
        self.presses_dropped = 0
        self.errors_dropped = 0

    # -- main loop -----------------------------------------------------------------------------

    def boot(self):
        """Announce this board (its HELLO after a reset) and clear every light."""
        for seat in range(self.seats):
            self._fill(self.rings[seat], OFF)
        for bar in self.bars:
            self._fill(bar, OFF)
        self.ep.control(wire.T_HELLO, self.hello())
        self._flush(self.ticks_ms())

    def hello(self):
        return wire.pack_hello(self.version, self.boot_id, self.seats, self.leds)

    def step(self):
        now = self.ticks_ms()
        data = self.uart.read()
        if data:
            for mtype, body in self.ep.feed(data, now):
                self.handle(mtype, body, now)
        self.scan_buttons(now)
        self.render(now)
        self._flush(now)

    def _flush(self, now):
        out = self.ep.poll(now)
        if out:
            self.uart.write(out)

    # -- messages ------------------------------------------------------------------------------

    def handle(self, mtype, body, now):
        if mtype == wire.T_SYNC:
            # (a new host nonce has already reset the numbering, in the endpoint)
            self.ep.control(wire.T_HELLO, self.hello())
        elif mtype == wire.T_HEARTBEAT:
            self.ep.control(wire.T_HEARTBEAT)
        elif mtype == wire.T_SET_LIGHT:
            seat, layer, repeat, steps = wire.unpack_set_light(body)
            if seat >= self.seats:
                self.report(wire.ERR_BAD_SEAT, "no seat " + str(seat))
                return
            if layer == wire.LAYER_FLASH:
                self.flash[seat] = [steps, repeat, now]
            else:
                self.base[seat] = [steps, repeat, now]
                self.flash[seat] = None
            self._applied(mtype, body)
        elif mtype == wire.T_SET_BAR:
            side, value, target = wire.unpack_bar(body)
            if side >= len(self.bars):
                self.report(wire.ERR_BAD_SIDE, "no bar " + str(side))
                return
            self._draw_bar(self.bars[side], wire.bar_lit(value, target, len(self.bars[side])))
            self._applied(mtype, body)
        elif mtype == wire.T_BUZZ:
            on_ms, off_ms, count = wire.unpack_buzz(body)
            self.beep = [[(1, 1, 1, on_ms), (0, 0, 0, off_ms)], max(1, count), now]
            self._applied(mtype, body)

    def _applied(self, mtype, body):
        if self.on_apply is not None:
            self.on_apply(mtype, body)

    def report(self, code, text):
        """Send an error report to the host (reliable; dropped and counted if the queue is full)."""
        try:
            self.ep.send(wire.T_ERROR, wire.pack_error(code, text))
        except wire.QueueFull:
            self.errors_dropped += 1

    # -- buttons -------------------------------------------------------------------------------

    def scan_buttons(self, now):
        for i, (seat, button, pin) in enumerate(self.buttons):
            state = self.button_state[i]
            raw = pin.value() == 0
            if raw != state[1]:
                state[1] = raw
                state[2] = now
            elif raw != state[0] and now - state[2] >= self.debounce_ms:
                state[0] = raw
                if raw:
                    self.press(seat, button)

    def press(self, seat, button):
        body = wire.pack_button(seat, button)
        try:
            self.ep.send(wire.T_BUTTON, body)
        except wire.QueueFull:  # the host is away: keep the newest presses
            self.ep.queue.pop(0)
            self.presses_dropped += 1
            self.ep.send(wire.T_BUTTON, body)

    # -- drawing -------------------------------------------------------------------------------

    def render(self, now):
        for seat in range(self.seats):
            color = None
            flash = self.flash[seat]
            if flash is not None:
                color = wire.pattern_color(flash[0], flash[1], now - flash[2])
                if color is None:
                    self.flash[seat] = None
            if color is None:
                base = self.base[seat]
                color = wire.pattern_color(base[0], base[1], now - base[2]) or OFF
            if color != self.shown[seat]:
                self.shown[seat] = color
                self._fill(self.rings[seat], color)
        if self.buzzer is not None:
            on = False
            if self.beep is not None:
                level = wire.pattern_color(self.beep[0], self.beep[1], now - self.beep[2])
                if level is None:
                    self.beep = None
                else:
                    on = level[0] > 0
            if on != self.buzzing:
                self.buzzing = on
                self.buzzer.value(1 if on else 0)

    @staticmethod
    def _fill(strip, color):
        for i in range(len(strip)):
            strip[i] = color
        strip.write()

    @staticmethod
    def _draw_bar(strip, lit):
        n = len(strip)
        for i in range(n):
            if lit >= 0:
                strip[i] = BAR_ON if i < lit else OFF
            else:
                strip[i] = BAR_NEGATIVE if i >= n + lit else OFF
        strip.write()
