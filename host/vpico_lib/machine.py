"""machine on the virtual Pico: the parts of rp2's module the firmware uses.

Pin levels live in memory shared with the bridge, which records what the
device drives and supplies what the outside world drives (buttons, wheel
contacts, the 74HC165 sensor chain). bitstream() sends the bytes to the
bridge as one pixel frame. Timer callbacks and Pin.irq handlers run while the
program sleeps (time.sleep*, idle, lightsleep), not between any two
bytecodes as on the Pico.
"""

import _vpico

PWRON_RESET = 1
WDT_RESET = 3
IDLE = 1
SLEEP = 2
DEEPSLEEP = 4

_timers = []  # active Timers
_irq_pins = []  # Pins with an irq handler


def _gpio(pin):
    return pin._gpio if isinstance(pin, Pin) else Pin(pin)._gpio


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_LOW_LEVEL = 1
    IRQ_HIGH_LEVEL = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, *, value=None, alt=-1):
        if isinstance(id, str):
            name = id.upper()
            if name == "LED":
                id = 25
            elif name.startswith("GP") and name[2:].isdigit():
                id = int(name[2:])
            else:
                raise ValueError("unknown pin")
        if not isinstance(id, int) or not 0 <= id <= 29:
            raise ValueError("invalid pin")
        self._gpio = id
        self._handler = None
        self._trigger = 0
        self._last = 0
        self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, *, value=None, alt=-1):
        if value is not None:
            self.value(value)
        _vpico.pin_mode(self._gpio, None if mode == -1 else mode, None if pull == -1 else (pull or 0))

    def value(self, x=None):
        if x is None:
            return _vpico.pin_read(self._gpio)
        _vpico.pin_write(self._gpio, 1 if x else 0)

    def __call__(self, x=None):
        return self.value(x)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    high = on
    low = off

    def toggle(self):
        self.value(1 - self.value())

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        self._handler = handler
        self._trigger = trigger
        self._last = self.value()
        if handler is None:
            if self in _irq_pins:
                _irq_pins.remove(self)
        elif self not in _irq_pins:
            _irq_pins.append(self)

    def __repr__(self):
        return "Pin(GPIO%d)" % self._gpio


class Signal:
    def __init__(self, pin, invert=False):
        self._pin = pin if isinstance(pin, Pin) else Pin(pin)
        self._invert = invert

    def value(self, x=None):
        if x is None:
            return self._pin.value() ^ self._invert
        self._pin.value((1 if x else 0) ^ self._invert)

    def __call__(self, x=None):
        return self.value(x)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class Timer:
    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id=-1, **kwargs):
        self._callback = None
        if kwargs:
            self.init(**kwargs)

    def init(self, *, mode=1, freq=-1, period=-1, callback=None, tick_hz=1000):
        import time

        if freq > 0:
            period = int(1000 / freq)
        elif tick_hz != 1000 and period > 0:
            period = period * 1000 // tick_hz
        self._period = max(1, period)
        self._mode = mode
        self._callback = callback
        self._due = time.ticks_add(time.ticks_ms(), self._period)
        if self not in _timers:
            _timers.append(self)

    def deinit(self):
        if self in _timers:
            _timers.remove(self)


def _service():
    """Run the Timer callbacks that are due and the Pin.irq handlers whose pin
    changed; return the ms until the next timer (or None)."""
    import time

    t = time.ticks_ms()
    nearest = None
    for timer in _timers[:]:
        left = time.ticks_diff(timer._due, t)
        if left <= 0:
            if timer._mode == Timer.PERIODIC:
                timer._due = time.ticks_add(timer._due, timer._period)
                left = timer._period
            else:
                _timers.remove(timer)
                left = None
            if timer._callback:
                timer._callback(timer)
        if left is not None and (nearest is None or left < nearest):
            nearest = left
    for pin in _irq_pins[:]:
        level = pin.value()
        if level != pin._last:
            edge = Pin.IRQ_RISING if level else Pin.IRQ_FALLING
            pin._last = level
            if pin._trigger & edge and pin._handler:
                pin._handler(pin)
    if _irq_pins and (nearest is None or nearest > 1):
        nearest = 1  # pins are watched every ms
    return nearest


class WDT:
    def __init__(self, id=0, timeout=5000):
        if not 1 <= timeout <= 8388:
            raise ValueError("timeout must be 1-8388 ms")  # the RP2040's 24-bit counter at 2 MHz
        _vpico.wdt_start(timeout)

    def feed(self):
        _vpico.wdt_feed()


class _Mem32:
    """machine.mem32, for the one RP2040 register the virtual Pico models:
    the watchdog's CTRL (ENABLE, bit 30; cleared through its atomic alias), and
    REASON (bit 0: the last reset was the watchdog timer, bit 1: forced)."""

    _CTRL = 0x40058000
    _REASON = 0x40058008
    _CLEAR = 0x3000  # atomic bit-clear alias
    _ENABLE = 1 << 30

    def __getitem__(self, addr):
        if addr == self._CTRL:
            return self._ENABLE if _vpico.wdt_running() else 0
        if addr == self._REASON:
            return _vpico.wdt_reason()
        raise ValueError("the virtual Pico does not model address 0x%08x" % addr)

    def __setitem__(self, addr, value):
        if addr != self._CTRL + self._CLEAR:
            raise ValueError("the virtual Pico does not model address 0x%08x" % addr)
        if value & self._ENABLE:
            _vpico.wdt_stop()


mem32 = _Mem32()


class RTC:
    _offset = 0  # seconds the clock was set away from the host's

    def datetime(self, when=None):
        import time

        if when is None:
            t = time.localtime(time.time() + RTC._offset)
            return (t[0], t[1], t[2], t[6], t[3], t[4], t[5], 0)
        year, month, day, _, hours, minutes, seconds = when[:7]
        RTC._offset = time.mktime((year, month, day, hours, minutes, seconds, 0, 0)) - time.time()


class ADC:
    CORE_TEMP = 4

    def __init__(self, pin):
        self._pin = pin

    def read_u16(self):
        return 0x8000  # mid-scale: there is no analog world here


def bitstream(pin, encoding, timing, buf):
    if encoding != 0:
        raise ValueError("encoding")
    _vpico.bitstream(_gpio(pin), tuple(timing), buf)


def reset():
    _vpico.reset()


def soft_reset():
    _vpico.soft_reset()
    raise SystemExit


def bootloader(value=None):
    # a virtual Pico has no UF2 drive: it just starts again
    _vpico.bootloader()


def reset_cause():
    return _vpico.reset_cause()


def unique_id():
    return b"VPICO\x00\x00\x01"


def freq(hz=None):
    if hz is None:
        return 125_000_000


def idle():
    import time

    time.sleep_ms(1)


def lightsleep(time_ms=None):
    import time

    time.sleep_ms(1 if time_ms is None else time_ms)


def deepsleep(time_ms=None):
    lightsleep(time_ms)
    reset()


def disable_irq():
    return 0


def enable_irq(state=0):
    pass
