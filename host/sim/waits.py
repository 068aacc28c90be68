"""What the board waits for now, the same in both simulators: ``waits(snap,
ports)`` reads it off the controller's snapshot and the board's ports, and each simulator says it in its own words
(the terminal with the command that does it, the browser with the click).

The order is the controller's: a pop-off's presses, a pick on button 1 and
the counter after a foul's kind are taken whatever else stands out of
place; a roll, a wheel turn and a move wait until the board is put as the
game has it.
"""

from host.sim import views
from rules.core import OVER, POPOFF, WHEEL


def waits(snap, ports):
    """(what, who, detail): what the board waits for (``snap``, the
    controller's snapshot; ``ports``, the board's hal ports), the player
    who is to do it (-1: nobody, or the two of a pop-off), and what the
    words need of it:

    - "new_game": button 2 held again starts one, a click keeps this game
    - "over": the game is over; detail: the winners
    - "popoff": both players of the pop-off press; detail: the two, button 1's first
    - "choice": the board cannot tell which of the moves button 1 offers was made
    - "named": a board's button named part of a step; the button that completes it to follow
    - "offered": button 1 steps through the steps (button mode, Tiddlee Snuka)
    - "turning": a wheel still turns; the board follows it once it rests
    - "board": the board differs from the game; detail: (extra, missing, wheels) as the snapshot has them
    - "throw": a die button; detail: whether the board throws sticks
    - "wheel": a wheel turned a quarter; detail: whether the turn may be declined
    - "move": a piece moved; detail: the space the lifted piece came from, or -1
    """
    game = snap.game
    if snap.prompt:
        return "new_game", -1, ()
    if game.phase == OVER:
        return "over", -1, views.winners(game)
    if game.phase == POPOFF:
        return "popoff", -1, snap.duel if snap.duel is not None else (game.turn, game.actor)
    who = game.actor
    if snap.choice:
        return "choice", who, ()
    if snap.named >= 0:
        return "named", who, ()
    if snap.offered is not None:
        return "offered", who, ()
    if ports.wheels is not None and ports.wheels.settling():
        return "turning", who, ()
    if snap.disagrees:
        return "board", who, (snap.extra, snap.missing, snap.wrong_wheels)
    if game.is_chance():
        return "throw", who, bool(game.board.extras.get("sticks"))
    if game.phase == WHEEL:
        return "wheel", who, any(d[1] < 0 for d in game.legal())
    return "move", who, snap.hand
