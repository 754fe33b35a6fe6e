"""The board's own COBS and CRC-32, for ``wire.py`` under MicroPython (copied as ``framing.py``).

The host uses the ``cobs`` package and the standard library's ``binascii.crc32``; MicroPython
has no ``cobs`` package and only some ports build ``binascii.crc32``, so the board carries
these. Each side decodes the other's COBS, both encode every Kibic frame (under 254 bytes) to
the same bytes, and the CRCs agree (``tests/test_firmware_framing.py`` checks them against
``cobs`` and ``zlib`` on random inputs). Written in the subset of Python MicroPython runs.
"""


class CobsError(ValueError):
    """A COBS block that cannot be undone (a zero byte, or a block past the end)."""


def crc32_bitwise(data, crc=0):
    """CRC-32 (ISO-HDLC, as zlib's ``crc32``), bit by bit with no table: 1 KB less RAM.

    >>> hex(crc32_bitwise(b"123456789"))
    '0xcbf43926'
    """
    crc = crc ^ 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xEDB88320 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF


try:
    from binascii import crc32
except ImportError:  # a MicroPython port built without binascii.crc32
    crc32 = crc32_bitwise


def cobs_encode(data):
    """Consistent-overhead byte stuffing: the result has no zero byte.

    >>> cobs_encode(b"\\x11\\x00\\x00\\x22")
    b'\\x02\\x11\\x01\\x02"'
    """
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    for byte in data:
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
            continue
        out.append(byte)
        code += 1
        if code == 0xFF:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    """Undo :func:`cobs_encode`; raises :class:`CobsError` on a block that cannot be undone."""
    if 0 in data:
        raise CobsError("zero byte in COBS data")
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        end = i + code
        if end > n:
            raise CobsError("COBS block runs past the end")
        out += data[i + 1 : end]
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)
