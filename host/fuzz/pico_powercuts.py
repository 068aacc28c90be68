"""Power cuts in the middle of saves on the emulated Pico: the real firmware
(``make build``) on the stock MicroPython, its littlefs on the emulated
flash (``host.pico.vpico``).

Each board in turn plays in button mode (config.json ``"input":
"buttons"``): a click of die button 1 throws, a long press confirms the
move the button offers (in a pop-off the two die buttons take turns; at
the end, a new game; in Detour a wheel turn may be declined, so a long
press plays it too). Each case arms a power cut just before a random one
of the next WRITES flash writes (an erase or a page program), or in half
the cases inside it (the write torn: a random fraction of its bytes done,
the rest as it was), and plays steps until it comes. The Pico starts
again on what its flash holds, and once it lights its first frame the
files are read: the game must resume (not start afresh, no error blink)
as the last step saved or with the step in progress, and its record
replay to it.

It is slow: a case is a few seconds of the Pico's time, and the emulator
runs slower than a Pico: about 4 cases a minute once a board has started,
on a busy two-core PC (8 cases on the four boards, the build and the
starts included, took 170 s).

Figures: the cuts, of them those inside a write; *halts* (nothing lit
after the power came back, or the error blink), *lost* (the save kept
aside, or the one resumed neither the one before the step nor one step
on), *records off* (the record does not replay to the save, lost a line
it had, or the start-up found it wrong).

Each board draws its cuts from its own seeded generator, so a failure
reported as (seed, case, board) comes again with that board's cases up to
it alone, e.g. case 9 of Detour with seed 1::

    python -m host.fuzz.pico_powercuts --board detour --cases 10 --seed 1
"""

import argparse
import json
import random
import shutil
import sys
import tempfile
from pathlib import Path

from app.keeper import BAD, SAVES, Keeper
from hal.pixels import Pixels
from host.boardfile import read_board
from host.fuzz import failures, report
from host.fuzz.powercuts import replayed
from host.pico import build
from host.pico.vpico import VirtualPico, flash
from rules.board import MAX_PIXELS
from rules.core import POPOFF
from rules.games import new_game

NAME = "pico-powercuts"
CASES = 80  # 20 a board; make test's sample is one case
BOARDS = ("detour", "sniggle", "mehen", "snuka")
# a wheel turn a long press may decline: the button plays every step (a turned wheel a cut
# step forgot would wait for a hand to turn it back)
OPTIONS = {"detour": {"wheel_turn_optional": True}}
FIGURES = ("halts", "lost", "records off")
WAIT_S = 180  # the PC's seconds a start of the Pico may take at most (a busy PC runs it slowly)
QUIET_MS = 400  # the Pico's flash is read once it has not been written for this long
LONG_MS = 900  # a long press
OFF_MS = 200  # how long the power stays off
WRITES = 16  # a cut comes before one of this many flash writes from when it is armed: about a step's
TORN = 0.5  # the share of cuts that come inside the write, not before it
STEPS = 50  # steps a case plays at most before its cut comes


class Board:
    """One board's Pico, its game on the flash as the PC reads it."""

    def __init__(self, pico, name, folder):
        self.pico = pico
        self.name = name
        self.folder = folder
        self.boots = 1
        self.pops = 0  # presses in pop-offs
        self.fresh = new_game(name, read_board(name), 2, OPTIONS.get(name))

    def quiet(self):
        """The Pico's files once its flash has been still for QUIET_MS."""
        for _ in range(100):
            before = self.pico.status()["flash"]
            self.pico.wait(QUIET_MS)
            if self.pico.status()["flash"] == before:
                return self.pico.files()
        raise RuntimeError("the Pico's flash was written for %d ms on end" % (100 * QUIET_MS))

    def kept(self, files):
        """(steps, game, record lines, note) of the game on the Pico's files,
        as the start-up resumes it on the PC; steps None if it does not."""
        saves = self.folder / SAVES
        saves.mkdir(exist_ok=True)
        for path in list(saves.iterdir()):
            path.unlink()
        for name, blob in files.items():
            if name.startswith(SAVES):
                (self.folder / name).write_bytes(blob)
        keeper = Keeper("%s/" % self.folder, self.name)
        game, note = keeper.resume(self.fresh)
        if game is None:
            return None, None, None, note
        return keeper.steps, game, files[SAVES + "game-%s.jsonl" % self.name].decode().splitlines(), note

    def step(self, game):
        """Press for the next step of ``game`` (at its end: a new game);
        returns once the buttons are up again."""
        pico = self.pico
        at = pico.now() + 10
        if game.phase == POPOFF:
            self.pops += 1
            until = pico.click("die%d" % (1 + self.pops % 2), at=at)
        elif game.is_chance():
            until = pico.click("die1", at=at)
        elif game.over():
            at = pico.click("die2", at=at, hold=LONG_MS)  # "new game?"
            until = pico.click("die2", at=at + 200, hold=LONG_MS)  # yes
        else:
            until = pico.click("die1", at=at, hold=LONG_MS)
        pico.wait(max(1, until - pico.now()))

    def restarted(self):
        """Whether the Pico started again since the last look."""
        boots = len(self.pico.status()["boots"])
        if boots == self.boots:
            return False
        self.boots = boots
        return True


def _image(build_dir, folder, name):
    """A blank Pico's flash with the build on it, set for board ``name`` in button mode."""
    files = folder / "files"
    shutil.copytree(build_dir, files)
    config = dict(json.loads((files / "config.json").read_text()), board=name, input="buttons",
                  options=OPTIONS.get(name, {}))
    (files / "config.json").write_text(json.dumps(config))
    path = folder / "fs.bin"
    path.write_bytes(flash.image(files))
    return path


def _case(board, rng, counts, seed, case):
    """A power cut armed before (or inside) a random flash write from now,
    steps played until it comes, and the start-up after it checked; the
    steps played, and whether the board halted."""
    pico = board.pico
    since = pico.status()["frames"]
    writes = rng.randrange(WRITES)
    torn = rng.random() if rng.random() < TORN else None
    if torn is not None:
        counts["torn"] += 1
    pico.power_cut(off=OFF_MS, after_writes=writes, torn=torn)
    for played in range(1, STEPS + 1):
        files = board.quiet()
        if board.restarted():
            break
        steps, game, lines, note = board.kept(files)
        if steps is None:
            raise RuntimeError("%s: no game to play before the power cut (%s)" % (board.name, note))
        before = steps, game.save(), lines, game.over()
        board.step(game)
    else:
        raise RuntimeError("%s: %d steps played and the flash never written" % (board.name, STEPS))
    frame = pico.wait_frame(since, timeout=WAIT_S)
    while frame is not None and frame["boot"] < board.boots:  # lit before the cut
        frame = pico.wait_frame(frame["n"] + 1, timeout=WAIT_S)
    failure = _check(board, board.quiet(), frame, *before)
    if failure:
        counts[failure[0]] += 1
        where = "cut before write %d" % writes if torn is None else "cut inside write %d (%.3f done)" % (writes, torn)
        report(NAME, (seed, case, board.name, where) + failure)
    return played - 1, failure is not None and failure[0] == "halts"


def _error_blink():
    """The wire bytes of the error blink's first frame (``app.startup.halt``):
    the first of every pixel a board may have lit red."""
    sent = []
    pixels = Pixels(MAX_PIXELS, sent.append)
    pixels.set(0, 255, 0, 0)
    pixels.show()
    return bytes(sent[0]).hex()


def _check(board, files, frame, steps, state, lines, ended):
    """What the start-up after the cut left (``files``), the step the cut
    came in played from ``steps`` steps, the game in ``state`` and its
    record's ``lines`` (``ended``: the step was a new game): None, or a
    failure (figure, what)."""
    if frame is None or frame["hex"] == _error_blink():
        return "halts", "%s after the power came back; error.log: %r; files: %s" % (
            "nothing lit" if frame is None else "the error blink", files.get("error.log", b"")[-300:],
            ", ".join(sorted(name for name in files if "/" not in name or name.startswith(SAVES))))
    if SAVES + "game-%s.sav%s" % (board.name, BAD) in files:
        return "lost", "the save was kept aside"
    now_steps, game, now_lines, note = board.kept(files)
    if now_steps is None:
        return "lost", note
    now_state = game.save()
    if ended:
        kept = now_state == state or now_steps == 0 and now_state == board.fresh.save()
    else:
        kept = now_steps == steps + 1 or now_steps == steps and now_state == state
    if not kept:
        return "lost", "resumed after %d steps, %d saved before the step" % (now_steps, steps)
    if now_lines[:len(lines)] != lines[:now_steps + 1] or len(now_lines) != now_steps + 1:
        return "records off", "%d lines for %d steps" % (len(now_lines), now_steps)
    replayed_state = replayed("%s/%sgame-%s.jsonl" % (board.folder, SAVES, board.name))
    if note or replayed_state != now_state:
        return "records off", note or ("the record does not replay" if replayed_state is None
                                       else "the record replays to another state")
    return None


def run(cases=CASES, seed=1, boards=BOARDS):
    counts = dict.fromkeys(FIGURES + ("torn",), 0)
    played = cut = 0
    with tempfile.TemporaryDirectory(prefix="fuzz-pico-") as root:
        root = Path(root)
        build.build(root / "build")
        (root / "build" / build.MANIFEST).unlink()  # beside the build, never on the Pico
        share = [cases // len(boards) + (k < cases % len(boards)) for k in range(len(boards))]
        for name, count in zip(boards, share):
            if not count:
                continue
            rng = random.Random("%s %d" % (name, seed))
            folder = root / name
            (folder / "kept").mkdir(parents=True)
            with VirtualPico(_image(root / "build", folder, name), board=name) as pico:
                board = Board(pico, name, folder / "kept")
                if pico.wait_frame(0, timeout=WAIT_S) is None:
                    raise RuntimeError("%s: the Pico lit nothing at its first start" % name)
                for case in range(count):
                    steps, halted = _case(board, rng, counts, seed, case)
                    played += steps
                    cut += 1
                    if halted:
                        break  # the board plays no more: on to the next
    return "%s: %s power cuts in saves, of them %s inside a write, %s; steps played %s" % (
        NAME, format(cut, ","), format(counts["torn"], ","), ", ".join("%d %s" % (counts[k], k) for k in FIGURES),
        format(played, ","))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host.fuzz.pico_powercuts",
                                     description="the campaign on some boards only, to see a reported case again")
    parser.add_argument("--board", action="append", choices=BOARDS, help="a board to play (again for more; default all)")
    parser.add_argument("--cases", type=int, default=CASES, help="cases in all, shared by the boards")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    line = run(args.cases, args.seed, tuple(args.board or BOARDS))
    print(line)
    return 1 if failures(line) else 0


if __name__ == "__main__":
    sys.exit(main())
