"""Once the pieces stand where the game has them, the game goes on: the
board agrees and a legal step done on the board is taken. What broke that:
a move judged while other pieces were still being put down, a piece put
back on a stack's target taken for a capture, and a piece put down while
the button was asked which move a stack's piece made, a wheel turn taken
while the wheel was being turned back, and a new game offered and declined
while the button was asked (the question was dropped)."""

from host.boardfile import read_board
from host.rig import Bytes, Rig
from rules.games import new_game
from rules.playout import Rng, random_step


def reached(name, players, options, wanted, seed=1):
    """A rig on the first state of a seeded random game where ``wanted(game)``
    names the moves to try (a true value)."""
    game = new_game(name, read_board(name), players, options)
    rng = Rng(seed)
    while not wanted(game):
        assert not game.over(), "the game ended before the state was reached"
        game.play(random_step(game, rng))
    return Rig(game, Bytes([0])), wanted(game)


def onto_a_piece(from_stack):
    """Moves onto a space where a piece stands, from a stack or from a single piece."""
    def wanted(game):
        counts = game.occupancy()
        return [(d, f, t) for d, f, t in game.moves()
                if f != t and counts[t] and (counts[f] >= 2) == from_stack]
    return wanted


def test_pieces_put_back_one_after_the_other_take_no_move():
    # the piece landed on and the mover both lifted, then put back where they
    # stood within a moment: no capture while the second still settles
    rig, moves = reached("detour", 2, {}, onto_a_piece(False))
    _, f, t = moves[0]
    before = rig.game.save()
    rig.sim.lift(t)
    rig.sim.lift(f)
    rig.run(200)
    rig.sim.put(t)
    rig.run(100)
    rig.sim.put(f)
    rig.run(1000)
    assert rig.game.save() == before
    assert not rig.snap.disagrees


def test_a_capture_put_down_alone_is_still_taken():
    rig, moves = reached("detour", 2, {}, onto_a_piece(False))
    _, f, t = moves[0]
    rig.sim.lift(t)
    rig.sim.lift(f)
    rig.run(200)
    rig.sim.put(t)
    rig.run(1000)
    assert rig.game.phase == 3 or rig.game.occupancy()[f] == 0  # the pop-off, or both back to START


def test_a_piece_lifted_and_put_back_beside_a_stack_is_no_capture():
    # from a stack the lift is not seen, so the board looks as before: the button confirms
    rig, moves = reached("detour", 2, {"pieces": 4}, onto_a_piece(True))
    d, _, t = moves[0]
    before = rig.game.save()
    rig.lift(rig.game.board.ids[t])
    rig.put(rig.game.board.ids[t])
    rig.run(1000)
    assert rig.game.save() == before
    assert not rig.snap.disagrees
    assert d in rig.ctl.choice
    rig.act(d)  # the button confirms what the player meant
    assert rig.game.save() != before


def test_another_move_made_while_the_button_is_asked_is_taken():
    def wanted(game):
        counts = game.occupancy()
        onto = onto_a_piece(True)(game)
        # a piece of a stack put down on an empty space: no sensor but that one changes
        free = [m for m in game.moves() if m[1] != m[2] and counts[m[1]] >= 2 and not counts[m[2]]]
        return (onto[0], free[0]) if onto and free else None

    rig, (onto, free) = reached("mehen", 2, {"hunt": True}, wanted)
    t = rig.game.board.ids[onto[2]]
    rig.lift(t)
    rig.put(t)
    assert rig.ctl.choice  # the board asks whether a piece of the stack moved there
    before = rig.game.save()
    rig.put(rig.game.board.ids[free[2]])
    assert rig.game.save() != before
    assert not rig.snap.disagrees


def test_a_wheel_turned_back_as_the_quiet_time_ends_turns_nothing():
    rig, _ = reached("detour", 2, {}, lambda game: game.phase == 2)
    before = rig.game.save()
    rig.sim.turn(0, 1)
    rig.run(610)  # the turn settled after 50 ms: 10 ms of its quiet time are left
    rig.sim.turn(0, -1)
    rig.run(1500)
    assert rig.game.save() == before
    assert not rig.snap.disagrees
    rig.turn(0, 1)
    assert rig.game.wheels[0] != before["wheels"][0]



def test_a_new_game_declined_while_the_button_is_asked_leaves_the_question_open():
    rig, moves = reached("detour", 2, {"pieces": 4}, onto_a_piece(True))
    d, _, t = moves[0]
    before = rig.game.save()
    rig.hold(1)  # a new game offered ...
    assert rig.ctl.prompt >= 0
    # ... while a piece of a stack is moved onto another: the board looks as before, the button is asked
    rig.lift(rig.game.board.ids[t])
    rig.put(rig.game.board.ids[t])
    rig.run(1000)
    assert d in rig.ctl.choice
    rig.press(0)  # button 1 declines the new game
    assert rig.ctl.prompt < 0 and rig.game.save() == before
    assert rig.ctl.picked == ("pick", rig.ctl.choice[0])  # and asks again which move it was
    rig.hold(0)
    assert rig.game.save() != before
