"""The board on the Pico: the game loop under the watchdog, and the log.

``main.py`` calls ``run()``: ``app.startup`` reads the configuration, builds
the ports and resumes the saved game (or starts a new one); it is then
unloaded, and the controller ticks every few milliseconds.

Nothing here ends in a reset loop. A configuration error is printed naming
the file and the field, appended to ``/error.log``, and the first pixel
blinks red (when the pixel pin is known) until the board is restarted.
The controller catches and logs a fault in any of its tasks; its log lines
go to the console and to ``/error.log`` too, which is kept small.

The watchdog runs only while the game loop runs: a loop that hangs for
WATCHDOG_MS restarts the board, which resumes the saved game. Whatever ends
the loop (Ctrl-C from a console or mpremote, an error) stops the watchdog
again, so the REPL stays usable for as long as needed. MicroPython has no
call to stop it, so the RP2040's watchdog enable bit is cleared directly.
"""

import os
import time

ERROR_LOG = "/error.log"
LOG_LIMIT = 4096  # bytes; past it the older half of the log is dropped
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


def log(text):
    """Print ``text`` and append it to /error.log."""
    print(text)
    try:
        try:
            size = os.stat(ERROR_LOG)[6]
        except OSError:
            size = 0
        if size > LOG_LIMIT:
            with open(ERROR_LOG, "rb") as f:
                f.seek(size - LOG_LIMIT // 2)
                kept = f.read()
            with open(ERROR_LOG, "wb") as f:
                f.write(kept[kept.find(b"\n") + 1:])
        with open(ERROR_LOG, "ab") as f:
            f.write(text.encode() + b"\n")
    except OSError:
        pass  # a full or failing flash must not stop the board


def stop_watchdog():
    import machine

    machine.mem32[WATCHDOG_CTRL_CLEAR] = WATCHDOG_ENABLE


def play(ctl):
    """Tick the controller for ever, under the watchdog."""
    from machine import WDT

    try:
        watchdog = WDT(timeout=WATCHDOG_MS)
        while True:
            ctl.tick(time.ticks_ms())
            watchdog.feed()
            time.sleep_ms(LOOP_MS)
    finally:
        stop_watchdog()


def _started():
    """The controller, ready to tick; a configuration error halts here."""
    import gc
    import sys

    from app import startup

    try:
        ctl = startup.start(startup.read_config())
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
    import machine
    import sys

    if machine.mem32[WATCHDOG_REASON] & WATCHDOG_TIMER:
        log("restarted by the watchdog: the game loop hung")
    try:
        try:
            play(_started())
        except Exception as err:  # a bug or a failing part: show it, never restart into it again and again
            sys.print_exception(err)
            from app.startup import halt, pixel_gpio

            halt("stopped by an error: %r" % err, pixel_gpio())
    except KeyboardInterrupt:
        print("stopped (Ctrl-C); the game is saved. Ctrl-D starts it again.")
