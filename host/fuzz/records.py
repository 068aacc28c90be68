"""Game records: real records of every game, mutated, replayed by ``python -m host.replay``.

A mutated record must be replayed or refused with a message, never a
traceback; its header names a board, and a path there is never opened (a
copy of a real board file is put where a path points); what the command
reads and echoes back is capped.
"""

import contextlib
import io
import json
import os
import random
import tempfile

from host import BOARDS
from host.boardfile import read_board
from host.fuzz import mutate, report, shorten
from host.replay import main
from rules.games import GAMES, new_game
from rules.playout import Rng, random_record

NAME = "records"
CASES = 12000
STEPS = 40  # steps in each real record
ECHO = 1000  # the most a refusal may print
BIG = 10 << 20  # a line of 10 MB, as a hostile file has


def _records(seed):
    """One real record per game: the header and STEPS step lines, as text lines."""
    rng = Rng(seed | 1)
    return [random_record(new_game(name, read_board(name), 2), rng, STEPS) for name in GAMES]


def _hostile(lines, rng, decoy):
    """A mutated copy of ``lines`` as bytes, and what was done."""
    lines = list(lines)
    k = rng.randrange(len(lines)) if rng.random() < 0.5 else 0  # the header half the time
    how = rng.randrange(8)
    if how < 3:
        tree, changes = mutate(json.loads(lines[k]), rng, rng.choice((1, 2)))
        lines[k] = json.dumps(tree)
        done = "line %d" % (k + 1), changes
    elif how == 3:
        done = "board", rng.choice((decoy, decoy[:-5], "../boards/detour", "/etc/passwd.json", "detour/../detour"))
        tree = json.loads(lines[0])
        tree["board"] = done[1]
        lines[0] = json.dumps(tree)
    elif how == 4:
        depth = rng.choice((50, 1000, 100000))
        lines[k] = "[" * depth + "]" * depth * rng.randrange(2)
        done = "nested", depth
    elif how == 5:
        size = BIG if rng.random() < 0.02 else rng.randrange(1000, 100000)
        lines[k] = lines[k][:-1] + ', "x": "' + "x" * size + '"}'
        done = "long line", size
    else:
        data = bytearray("\n".join(lines).encode())
        for _ in range(rng.randrange(1, 6)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        if how == 7:
            del data[rng.randrange(len(data)):]
        return bytes(data), ("bytes", how)
    return "\n".join(lines).encode() + b"\n", done


def run(cases, seed):
    rng = random.Random(seed)
    records = _records(seed)
    tracebacks = opened = echoed = 0
    with tempfile.TemporaryDirectory(prefix="fuzz-records-") as folder:
        decoy = os.path.join(folder, "board.json")
        with open(os.path.join(BOARDS, "detour.json")) as src, open(decoy, "w") as dst:
            dst.write(src.read())
        path = os.path.join(folder, "game.jsonl")
        for case in range(cases):
            data, done = _hostile(records[case % len(records)], rng, decoy)
            with open(path, "wb") as f:
                f.write(data)
            out, err = io.StringIO(), io.StringIO()
            try:
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    code = main([path])
            except Exception as error:
                tracebacks += 1
                report(NAME, (seed, case, done, "%s: %s" % (type(error).__name__, shorten(str(error)))))
                continue
            if code == 0 and done[0] == "board" and "/" in done[1]:
                opened += 1
                report(NAME, (seed, case, done, "replayed on a board read from a path"))
            if code != 0 and len(err.getvalue()) > ECHO:
                echoed += 1
                report(NAME, (seed, case, done, "%d characters echoed" % len(err.getvalue())))
    return ("%s: %s mutated, %s tracebacks, %s paths opened, %s echoes over %d characters"
            % (NAME, format(cases, ","), format(tracebacks, ","), format(opened, ","), format(echoed, ","), ECHO))
