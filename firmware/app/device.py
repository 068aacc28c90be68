"""The board on the Pico: the game loop under the watchdog.

``main.py`` calls ``run()``: ``app.startup`` reads the configuration, builds
the ports and resumes the saved game (or starts a new one); it is then
unloaded, and the controller ticks every few milliseconds, the USB line
protocol (``app.link``, hardware/usb-protocol.md) after it once a host has
spoken: until then the link is not loaded.

Nothing here ends in a reset loop. A configuration error is printed naming
the file and the field, appended to ``/error.log``, and the first pixel
blinks red (when the pixel pin is known) until the board is restarted.
The controller catches and logs a fault in any of its tasks; its log lines
go to the console and to ``/error.log`` too, which is kept small (``app.watch``).

The watchdog runs only while the game loop runs: a loop that hangs for
WATCHDOG_MS restarts the board, which resumes the saved game. Whatever ends
the loop (Ctrl-C from a console or mpremote, an error) stops the watchdog
again, so the REPL stays usable for as long as needed. MicroPython has no
call to stop it, so the RP2040's watchdog enable bit is cleared directly.

No endless restarts: the watchdog restarts in a row, with no step of play
between them, are counted in a scratch register of the watchdog (it keeps
its value through a restart, not through a power cut). Each is logged once:
a soft reset (Ctrl-D) runs main.py again with the watchdog's REASON still
set, so a restart is marked counted, and the mark is cleared when the
watchdog is started again. At the third restart in a row the saved game is
kept aside and a new game starts; at the sixth (the new game hangs too) the
board stops with a message instead of restarting for ever. A step played
sets the count back to 0.

The watchdog's registers are the RP2040's: on another chip (a Pico 2's
RP2350) the board refuses to start, with a message.
"""

import os
import sys
import time

# A built-in module that files may extend (time, os, json, machine, ...) is
# looked for on the filesystem at every import, and MicroPython keeps it out
# of sys.modules: on the Pico's flash each such import costs 4 to 6 ms, and
# the start-up imports them some twenty times (a step, twice). Kept in
# sys.modules, every import after the first is a look-up.
for _name in ("os", "time", "json", "binascii", "array", "machine"):
    try:
        sys.modules[_name] = __import__(_name)
    except ImportError:  # (no machine on a PC)
        pass

# (imported after the loop above: its own import of os is then a look-up)
from app.watch import RESTARTS_OURS, log, restarts_word, set_restarts_word

LOOP_MS = 1  # the pause between two ticks: the buttons are read every few ms
WATCHDOG_MS = 8000  # the RP2040's longest is 8388
# RP2040 datasheet, 4.7: the watchdog's CTRL register (0x40058000) through its
# atomic bit-clear alias (+0x3000), whose bit 30 is ENABLE; and its REASON
# register, bit 0 set after a reset by the timer running out (machine.reset()
# sets bit 1 instead)
WATCHDOG_CTRL_CLEAR = 0x4005B000
WATCHDOG_ENABLE = 1 << 30
WATCHDOG_REASON = 0x40058008
WATCHDOG_TIMER = 1
# its SCRATCH0-7 (0x4005800C-0x40058028) keep their value through a reset by
# the watchdog or machine.reset(). The boot ROM's reset into USB boot
# (machine.bootloader()) writes SCRATCH0-1, the SDK's reboot and watchdog
# SCRATCH4-7: SCRATCH2 (app.watch.RESTARTS) is free for the restarts in a row
COUNTED = 0x100  # the watchdog restart that set REASON is counted (its low byte: the count)
GIVE_UP = 3  # restarts in a row that keep the saved game aside
STOP = 6  # restarts in a row, the new game's too, that stop the board


def stop_watchdog():
    import machine

    machine.mem32[WATCHDOG_CTRL_CLEAR] = WATCHDOG_ENABLE


def unsupported(machine):
    """Why the firmware cannot run on the chip ``machine`` names
    (``os.uname().machine``), or "" when it can."""
    if "RP2040" in machine:
        return ""
    return ("this firmware runs on a Raspberry Pi Pico or Pico W (RP2040), not on a %s: its watchdog sits at "
            "other addresses. Put the board's firmware on a Pico with an RP2040." % machine)


def restarted():
    """The watchdog restarts in a row, this start counted (and logged) if
    the watchdog caused it; 0 when it did not, or when it is counted already."""
    import machine

    word = restarts_word()
    if not machine.mem32[WATCHDOG_REASON] & WATCHDOG_TIMER or word & COUNTED:
        return 0
    count = min((word & 0xFF) + 1, 0xFF)
    set_restarts_word(RESTARTS_OURS | COUNTED | count)
    log("restarted by the watchdog (%d in a row): the game loop hung" % count)
    return count


def play(ctl, make_link=None):
    """Tick the controller (and the USB link, app.link, that ``make_link()``
    returns once it returns one) for ever, under the watchdog."""
    import gc

    from machine import WDT

    from hal import flash

    paced = flash.pace(lambda erase: ctl.animate(time.ticks_ms(), erase))  # a save's flash writes let the animation out
    try:
        watchdog = WDT(timeout=WATCHDOG_MS)
        set_restarts_word(restarts_word() & ~COUNTED)  # a restart from now on is a new one
        link = None
        while True:
            now = time.ticks_ms()
            ctl.tick(now)
            if link:
                link.tick(now)
            elif make_link:
                try:
                    link = make_link()  # None until a host speaks, and never before the first frame
                except Exception as err:  # (no heap left for it): the game goes on without the link
                    ctl.fault("link", err)
                    make_link = None
            if ctl.collect_due(now):
                # the garbage a step left is collected now, between two frames (17 ms on a Pico), so that
                # no collection falls in the middle of the next press's answer or a save's
                gc.collect()
            watchdog.feed()
            pause = ctl.pause_us(LOOP_MS * 1000)
            if pause == LOOP_MS * 1000:
                time.sleep_ms(LOOP_MS)  # (it lets the USB port's events in; sleep_us's last ms does not)
            else:
                time.sleep_us(pause)  # a click's release is known then: poll at once
    finally:
        if paced:
            paced.between = None  # the REPL's own file writes (mpremote cp) leave the pixels be
        stop_watchdog()
        set_restarts_word(restarts_word() | COUNTED)  # REASON stays set through a soft reset


def link_maker(ctl, host, serial=None):
    """``play()``'s ``make_link``: the USB link (``app.link``) once a host
    has spoken, None before. ``host`` polls the port's input (``ipoll``);
    ``serial()`` makes the port the link talks on (by default the Pico's USB
    serial port). A board played without a PC never holds the link (8 KB of
    heap). Its module loads on the pass that sees the host's first byte (50
    ms on a Pico, as long as a flash erase), the link starts on the next;
    the byte waits for it to read."""
    loaded = []

    def make_link():
        if loaded:
            from app.link import Link, UsbSerial

            return Link(ctl, serial() if serial else UsbSerial())
        for _ in host.ipoll(0):
            import app.link  # noqa: F401

            loaded.append(True)
        return None

    return make_link


def _started():
    """The controller, ready to tick; a configuration error, another chip
    or a loop that hangs whatever game it plays halts here."""
    import gc
    import sys

    from app import startup

    stop = unsupported(os.uname().machine)
    restarts = 0 if stop else restarted()
    if restarts >= STOP:
        stop = ("the board restarted %d times in a row, with a new game too: it stops here instead of restarting "
                "for ever. Copy error.log off the board for a report (hardware/flashing.md)" % restarts)
    if stop:
        startup.halt(stop, startup.pixel_gpio())
    refuse = "the board restarted %d times in a row while playing it" % restarts if restarts == GIVE_UP else ""
    try:
        ctl = startup.start(startup.read_config(), refuse)
    except startup.ConfigError as err:
        startup.halt(str(err), startup.pixel_gpio())  # until Ctrl-C or a restart
        raise
    import app
    import hal

    # not needed again: their code leaves the RAM to the game (the package
    # holds a reference to a module it imported, as sys.modules does)
    for package, name in ((app, "startup"), (hal, "pins")):
        sys.modules.pop(package.__name__ + "." + name, None)
        if hasattr(package, name):
            delattr(package, name)
    gc.collect()
    return ctl


def run():
    import select
    import sys

    try:
        try:
            ctl = _started()
            host = select.poll()
            host.register(sys.stdin, select.POLLIN)
            play(ctl, link_maker(ctl, host))
        except Exception as err:  # a bug or a failing part: show it, never restart into it again and again
            sys.print_exception(err)
            from app.startup import halt, pixel_gpio

            halt("stopped by an error: %r" % err, pixel_gpio())
    except KeyboardInterrupt:
        print("stopped (Ctrl-C); the game is saved. Ctrl-D starts it again.")
