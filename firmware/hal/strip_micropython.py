"""Pixels on a Pico under MicroPython: our wire bytes out through
``machine.bitstream`` with WS2812B timing, as MicroPython's neopixel driver
sends them."""

# high/low times in ns for a 0 bit and a 1 bit at 800 kHz (the WS2812B datasheet's T0H/T0L, T1H/T1L)
TIMING_800KHZ = (400, 850, 800, 450)


def transmitter(gpio):
    """A ``transmit(buf)`` for the data pin on GPIO ``gpio``."""
    from machine import Pin, bitstream

    pin = Pin(gpio, Pin.OUT)

    def transmit(buf):
        bitstream(pin, 0, TIMING_800KHZ, buf)

    return transmit
