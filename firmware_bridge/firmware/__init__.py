"""MicroPython firmware for the RP2040 seat-light board (see README.md)."""
