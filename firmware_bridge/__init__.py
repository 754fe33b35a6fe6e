"""Seat lights, buzzer, buttons and score bars: on the Pi's GPIO or on a microcontroller board
over a framed, acknowledged serial link.

Importing this package opens no device and imports neither gpiozero nor pySerial: the names
below are loaded on first use.

- :mod:`firmware_bridge.patterns`: ``Pattern``, ``PATTERNS``, ``EventMapper`` (events to commands)
- :mod:`firmware_bridge.lights`: the ``Lights`` protocol, ``ButtonPressed``, ``NullLights``
- :mod:`firmware_bridge.gpio`: ``GpioLights``, ``GpioPins``, ``SeatPins``
- :mod:`firmware_bridge.serial_lights`: ``SerialLights``
- :mod:`firmware_bridge.link`: ``open_link``, ``SerialLink``; :mod:`firmware_bridge.wire`: the
  protocol; :mod:`firmware_bridge.sim`: the simulated board; :mod:`firmware_bridge.legacy`:
  protocol version 1, recognised only to refuse an old board by name
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Pattern": "patterns",
    "PATTERNS": "patterns",
    "BuzzSpec": "patterns",
    "EventMapper": "patterns",
    "LightCommand": "patterns",
    "BuzzCommand": "patterns",
    "Lights": "lights",
    "NullLights": "lights",
    "ButtonPressed": "lights",
    "ButtonHub": "lights",
    "SeatButton": "lights",
    "GpioLights": "gpio",
    "GpioPins": "gpio",
    "SeatPins": "gpio",
    "SerialLights": "serial_lights",
    "BoardError": "serial_lights",
    "SerialLink": "link",
    "LinkState": "link",
    "LinkTimings": "link",
    "Backoff": "link",
    "open_link": "link",
    "SimulatedBoard": "sim",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'firmware_bridge' has no attribute {name!r}")
    return getattr(importlib.import_module(f"firmware_bridge.{module}"), name)
