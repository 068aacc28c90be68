"""The USB link (``app.link``) answering a hostile host from a damaged flash.

Each case is a board (``host.rig.Rig``) whose game a random number of
steps were played and kept (``app.keeper``), its record then damaged as a
failing flash or a cut power leaves it (bytes changed, a line cut short or
doubled, garbage between two lines, bytes past the end), or made long
(every 20th case: 20,000 lines). A host then sends random requests (record
and subscription from any line, the other verbs, hostile bytes), and the
link ticks with the controller.

Figures: *raw lines* (an answer that is not one JSON object), *damaged lines
sent* (a record line answered that is not a whole line as the record writes
it), *ticks over budget* (a tick that read more than READ_BUDGET bytes of
the record), *faults* (the controller or the link caught an exception),
*states changed* (the game is not what it was before the host spoke), *halts* (an
exception out of the link or the controller).
"""

import json

import app.link
from app.keeper import Keeper
from app.link import Link, whole
from hal import storage
from host.boardfile import read_board
from host.fuzz import games_in_folders, quiet
from host.rig import Bytes, CountedFile, Rig, SerialPort
from rules.games import find_game
from rules.playout import random_step

NAME = "link"
CASES = 1000
READ_BUDGET = 4096  # bytes of the record one tick may read: 32 lines and a page, with room
LONG = 20000  # lines of a long record
REQUESTS = 12
FIGURES = ("raw lines", "damaged lines sent", "ticks over budget", "faults", "states changed", "halts")


def damage(path, rng, long):
    """Damage the record at ``path`` (or make it ``long``); what was done."""
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")[:-1]
    if long:
        lines += [lines[-1]] * LONG
        done = "long"
    else:
        k = rng.randrange(len(lines))
        how = rng.randrange(5)
        if how == 0:
            line = bytearray(lines[k])
            for _ in range(rng.randrange(1, 4)):
                line[rng.randrange(len(line))] = rng.randrange(256)
            lines[k] = bytes(line)
        elif how == 1:
            lines[k] = lines[k][:rng.randrange(len(lines[k]))]
        elif how == 2:
            lines.insert(k, lines[k])
        elif how == 3:
            lines.insert(k, bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80))).replace(b"\n", b""))
        done = ("damaged", how, k)
    data = b"\n".join(lines) + b"\n"
    if not long and rng.random() < 0.3:
        data += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))  # a line still being written
    with open(path, "wb") as f:
        f.write(data)
    return done, data.split(b"\n")


def request(rng, steps):
    n = rng.choice((0, 1, steps, steps + 1, rng.randrange(steps + 2), rng.randrange(1 << 20), 999999))
    return rng.choice((b"~record %d\n" % n, b"~record %d\n" % n, b"~sub %d\n" % n, b"~hello\n", b"~ping\n",
                       b"~state\n", b"~frame\n", b"~unsub\n", b"~record -1\n", b"~record 1234567\n",
                       b"~" + bytes(rng.randrange(256) for _ in range(rng.randrange(90))) + b"\n"))


def one(folder, setup, case, rng, steps):
    name, players, options = setup
    game = find_game(name)(read_board(name), players, options)
    keeper = Keeper(folder, name, log=lambda text: None)
    keeper.begin(game)
    rig = Rig(game, Bytes([rng.randrange(256) for _ in range(64)]), keeper=keeper, log=quiet)
    for _ in range(rng.randrange(1, 40)):
        if rig.game.over():
            break
        rig.act(None if rig.game.is_chance() else random_step(rig.game, steps))
    long = case % 20 == 7
    done, lines = damage(keeper.record_path, rng, long)
    if long:
        # a save as long as the record (its lines are not replayed: only read); the marks as the start-up makes them
        storage.save(keeper.save_path, json.dumps({"version": 1, "steps": len(lines) - 2, "state": rig.game.save()}))
        keeper.resume(type(game)(game.board, players, options))
    state = rig.game.save()
    faults = rig.snap.faults
    port = SerialPort()
    link = Link(rig.ctl, port)
    read = [0]
    app.link.open = lambda path, mode: CountedFile(open(path, mode), read)
    worst = 0
    try:
        for _ in range(REQUESTS):
            port.waiting += request(rng, keeper.steps)
            for _ in range(rng.randrange(5, 40)):
                rig.now += rig.STEP_MS
                rig.ctl.tick(rig.now)
                read[0] = 0
                link.tick(rig.now)
                worst = max(worst, read[0])
    finally:
        del app.link.open
    whole_lines = set(lines)
    for text in bytes(port.written).split(b"\n")[:-1]:
        try:
            answer = json.loads(text[1:]) if text[:1] == b"~" else None
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            return "raw lines", (done, text[:120])
        if "line" in answer:
            n = answer["n"]
            raw = text[text.index(b'"line": ') + 8:-1]
            if raw not in whole_lines or not whole(raw, 0, len(raw), n):
                return "damaged lines sent", (done, n, raw[:120])
    if worst > READ_BUDGET:
        return "ticks over budget", (done, "%d bytes read in one tick" % worst)
    if rig.snap.faults != faults:
        return "faults", done
    if rig.game.save() != state:
        return "states changed", done
    return None


def run(cases=CASES, seed=1):
    return games_in_folders(NAME, "boards", FIGURES, cases, seed, one)
