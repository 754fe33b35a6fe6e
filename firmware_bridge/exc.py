"""The errors of firmware_bridge, one tree under :class:`BridgeError`."""

from __future__ import annotations


class BridgeError(Exception):
    """Base class of every error raised by firmware_bridge."""


class SeatError(BridgeError, ValueError):
    """A seat or score side that this table's lights do not have."""


class LinkError(BridgeError):
    """Base class of the serial link's errors."""


class LinkClosed(LinkError):
    """The link was closed; nothing more can be sent on it."""


class LinkQueueFull(LinkError):
    """Too many messages are waiting for the board; this one was not queued."""


class IncompatibleBoard(LinkError):
    """The board answered with a protocol version this host does not speak."""


class UnknownURL(LinkError, ValueError):
    """``open_link`` was given a URL scheme it does not know."""
