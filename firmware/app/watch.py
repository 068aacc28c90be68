"""The log and the count of the watchdog's restarts in a row.

The start-up (``app.startup``) and the game loop (``app.device``) both use
them, and the controller and the keeper while the game runs: so they live
here, below both, and stay loaded when the start-up is unloaded. How the
count works is told in ``app.device``.
"""

import os

ERROR_LOG = "/error.log"
LOG_LIMIT = 4096  # bytes; past it the older half of the log is dropped
# the RP2040 watchdog's SCRATCH2 register, which keeps its value through a
# restart (why this one: app.device)
RESTARTS = 0x40058014
RESTARTS_OURS = 0x5A1E0000  # the upper half of the word when it holds the count


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


def restarts_word():
    """The restarts word: ours, or a count of 0."""
    import machine

    word = machine.mem32[RESTARTS]
    return word if word & 0xFFFF0000 == RESTARTS_OURS else RESTARTS_OURS


def set_restarts_word(word):
    import machine

    machine.mem32[RESTARTS] = word


def forget_restarts():
    """A step was played: the restarts before it are not in a row with the next."""
    set_restarts_word(restarts_word() & ~0xFF)
