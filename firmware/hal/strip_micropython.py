"""Pixels on a Pico under MicroPython: our wire bytes shifted out by a PIO
state machine that DMA feeds, so the game goes on while a frame is on the
wire (30 us a pixel: 5.9 ms for Sniggle's 195).

WS2812B datasheet, 800 kHz: a 0 bit is high 0.4 us and low 0.85 us, a 1 bit
high 0.8 us and low 0.45 us, each within 150 ns. A low latches the frame: 50 us
in the first datasheet, at least 280 us in the current one (RES), so the next
frame waits 300 us; with less, a current part may merge two frames and lose
the second. At a 20 MHz state-machine clock (50 ns a cycle) that is
8 high and 17 low cycles for a 0, 16 and 9 for a 1. Each byte written to the
TX FIFO fills all four byte lanes of the word, so the state machine pulls 8
bits a byte, from the top.
"""

import time

TYPE_CHECKING = False
if TYPE_CHECKING:  # the PIO assembler's names, for the type check
    from rp2.asm_pio import *  # noqa: F403

PIO_HZ = 20000000
DREQ_PIO0_TX0 = 0  # RP2040 datasheet 2.5.3.1: state machine 0 of PIO0 asks for data
US_PER_BYTE = 10  # 8 bits of 1.25 us
LATCH_US = 300  # the low between frames: current WS2812Bs need 280 us


def _bits():
    # rp2.asm_pio runs this with the assembler's names as its globals;
    # the delays in brackets are the cycles above, less the instruction's own
    wrap_target()
    label("bit")
    out(x, 1).side(0)[8]  # low 9 cycles: the part of the low time both bits have
    jmp(not_x, "zero").side(1)[7]  # high 8: a 0 bit's high time
    jmp("bit").side(1)[7]  # high 8 more: a 1 bit's 16
    label("zero")
    nop().side(0)[7]  # low 8 more: a 0 bit's 17
    wrap()


class Transmitter:
    """``transmit(buf)`` of ``count`` wire bytes on GPIO ``gpio``: returns once the
    bytes are copied and the DMA started; the next call waits for the wire
    (and the latch) to be free."""

    def __init__(self, gpio, count):
        import rp2
        from machine import Pin

        program = rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT,
                              autopull=True, pull_thresh=8)(_bits)
        self._sm = rp2.StateMachine(0, program, freq=PIO_HZ, sideset_base=Pin(gpio))
        self._sm.active(1)
        self._dma = rp2.DMA()
        self._ctrl = self._dma.pack_ctrl(size=0, inc_write=False, treq_sel=DREQ_PIO0_TX0)
        self._out = bytearray(count)  # what is on the wire, while the caller fills its buffer again
        self._free = time.ticks_us()

    def __call__(self, buf):
        while time.ticks_diff(self._free, time.ticks_us()) > 0:
            pass
        out = self._out
        out[:] = buf
        self._dma.config(read=out, write=self._sm, count=len(out), ctrl=self._ctrl, trigger=True)
        self._free = time.ticks_add(time.ticks_us(), len(out) * US_PER_BYTE + LATCH_US)

