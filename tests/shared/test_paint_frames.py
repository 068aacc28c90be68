"""A frame painted while nothing changes allocates nothing, whatever the
game shows: the Pico's loop paints every few ms, and a frame that left
garbage would bring a collection (many ms) into the middle of a tick.
Counted under MicroPython (gc.mem_alloc); CPython has no count to check."""

import gc

from app.paint import Canvas, paint
from host.rig import Bytes, Rig
from rules.games import GAMES, new_game
from rules.playout import Rng, random_step
from support import board_data

FRAMES = 40
FRAME_MS = 20


def allocated_by_frames(rig):
    """Bytes allocated by painting FRAMES frames after the first at this
    moment (the simulated strip's transmit, which copies the frame, left out)."""
    snap = rig.snap
    extras = snap.game.board.extras
    canvas = Canvas(snap.game, rig.ports.pixels, tuple(extras[k] for k in ("die1", "die2") if k in extras))
    paint(canvas, snap, rig.now)
    gc.collect()
    before = gc.mem_alloc()
    for k in range(1, FRAMES + 1):
        paint(canvas, snap, rig.now + k * FRAME_MS)
    return gc.mem_alloc() - before


def moments(name):
    """A rig at each moment worth a look: the first roll awaited, a move
    awaited after it, and the game over (played to its end by the rules)."""
    game = new_game(name, board_data(name), 2, None)
    rig = Rig(game, Bytes((0,)))
    yield "roll", rig
    rig.act(None)
    yield "decide", rig
    game = new_game(name, board_data(name), 2, None)
    rng = Rng(7)
    while not game.over():
        game.play(random_step(game, rng))
    yield "over", Rig(game, Bytes((0,)))


def test_a_frame_allocates_nothing_at_any_moment_of_any_game():
    if not hasattr(gc, "mem_alloc"):
        return
    seen = {}
    for name in GAMES:
        for moment, rig in moments(name):
            seen["%s %s" % (name, moment)] = allocated_by_frames(rig)
    assert not any(seen.values()), "bytes allocated by %d frames: %r" % (FRAMES, seen)
