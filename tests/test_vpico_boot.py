"""The board always starts and never restarts for ever: on the emulated
Pico, a game loop that hangs whenever it resumes a saved game is restarted
by the watchdog three times, then the save is kept aside and a new game
plays; each restart is logged once, and a soft reset after it is not a
restart; a loop that hangs in the new game too stops the board at the sixth
restart. On CPython: which chips the firmware runs on."""

import json
import time

import serial

import pytest

from app import device, startup
from app.keeper import BAD, SAVES
from hal import storage
from host.pico.vpico import VirtualPico, flash
from host.rig import Bytes, Rig
from rules.board import MAX_PIXELS
from test_vpico import build_dir, fresh_game, image, prepared, shows, wire  # noqa: F401 (build_dir: a fixture)

pytestmark = pytest.mark.pico

WATCHDOG_MS = 300  # the loop's watchdog on this firmware, for a short test (the board's is 8 s)
SAVED = "the saved game could not be resumed (the board restarted 3 times in a row while playing it); " \
        "a new game started; the old save is kept as game-detour.sav.bad"


def hanging(folder, build_dir, game, played, hangs):
    """The Pico's filesystem with ``game`` saved, and a main.py whose game
    loop hangs in its first tick while ``hangs`` (of the controller
    ``self``) holds, as a bug that some position brings out would."""
    image(build_dir, folder, "detour", game, played)
    (folder / "files" / "main.py").write_text(
        "import app.controller as c\n"
        "import app.device as d\n"
        "tick = c.Controller.tick\n"
        "def hung(self, now):\n"
        "    while %s:\n"
        "        pass\n"
        "    tick(self, now)\n"
        "c.Controller.tick = hung\n"
        "d.WATCHDOG_MS = %d\n"
        "d.run()\n" % (hangs, WATCHDOG_MS))
    path = folder / "fs.bin"
    path.write_bytes(flash.image(folder / "files"))
    return path


def restarts(log):
    return [text for text in log.splitlines() if text.startswith("restarted by the watchdog")]


def test_a_game_that_hangs_at_every_resume_is_kept_aside_after_three_watchdog_restarts(build_dir, tmp_path):
    game, played = prepared("detour", steps=8)
    with VirtualPico(hanging(tmp_path, build_dir, game, played, "self.keeper.steps")) as pico:
        # nothing lights while the saved game hangs; the new game's first frame is the first one
        first = pico.wait_frame(0, timeout=240)
        assert first is not None, "the board never came back with a new game"
        assert pico.status()["boots"] == ["power", "watchdog", "watchdog", "watchdog"]
        assert shows(first, Rig(fresh_game("detour"), Bytes([0])))
        files = pico.files()
        log = files["error.log"].decode()
        assert restarts(log) == ["restarted by the watchdog (%d in a row): the game loop hung" % n for n in (1, 2, 3)]
        assert SAVED in log
        kept = files[SAVES + "game-detour.sav" + BAD]
        assert json.loads(storage.unpack(kept))["state"] == game.save()
        assert [json.loads(text) for text in files[SAVES + "game-detour.jsonl" + BAD].decode().splitlines()[1:]] == played
        # Ctrl-C and Ctrl-D: main.py runs again, the watchdog's REASON still set from the last restart
        seen = soft_reset(pico, "detour, 2 players")
        assert "the saved game resumed after 0 steps" in seen, seen
        assert pico.files()["error.log"].decode() == log
        assert pico.status()["boots"] == ["power", "watchdog", "watchdog", "watchdog"]


def test_a_loop_that_hangs_in_a_new_game_too_stops_the_board_after_six_restarts(build_dir, tmp_path):
    game, played = prepared("detour", steps=8)
    with VirtualPico(hanging(tmp_path, build_dir, game, played, "True")) as pico:
        # the first thing lit: the first pixel blinking red, as for a mistake in a file
        on = pico.wait_frame(0, timeout=120)
        assert on is not None and on["hex"] == wire(MAX_PIXELS, (0, 255, 0, 0))
        assert pico.status()["boots"] == ["power"] + ["watchdog"] * 6
        log = pico.files()["error.log"].decode()
        assert len(restarts(log)) == 6 and SAVED in log
        assert log.endswith("the board restarted 6 times in a row, with a new game too: it stops here instead of "
                            "restarting for ever. Copy error.log off the board for a report (hardware/flashing.md)\n")
        pico.wait(5 * WATCHDOG_MS)
        assert len(pico.status()["boots"]) == 7  # no more restarts


def soft_reset(pico, until, timeout=60):
    """Ctrl-C, then Ctrl-D at the prompt; what the Pico prints up to ``until`` after it."""
    with serial.Serial(pico.port, timeout=0.1) as port:
        port.write(b"\x03")
        seen = b""
        deadline = time.monotonic() + timeout
        while b">>> " not in seen and time.monotonic() < deadline:
            seen += port.read(4096)
        port.write(b"\x04")
        seen = b""
        while until.encode() not in seen and time.monotonic() < deadline:
            seen += port.read(4096)
        seen += port.read(4096)
    return seen.decode(errors="replace")


def test_the_firmware_runs_on_an_rp2040_and_refuses_another_chip_by_name():
    # os.uname().machine on MicroPython's rp2 port: the board, then the chip
    for machine in ("Raspberry Pi Pico with RP2040", "Raspberry Pi Pico W with RP2040"):
        assert device.unsupported(machine) == ""
    message = device.unsupported("Raspberry Pi Pico2 with RP2350")
    assert message == ("this firmware runs on a Raspberry Pi Pico or Pico W (RP2040), not on a Raspberry Pi Pico2 "
                       "with RP2350: its watchdog sits at other addresses. Put the board's firmware on a Pico with "
                       "an RP2040.")
