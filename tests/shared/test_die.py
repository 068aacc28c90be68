"""The electronic die as the players see it: faces, tumble, pop-off."""

from app.die import FACES, TUMBLE_MS, TUMBLE_STEP_MS, Faces, PopOff, Tumble
from hal import Chance
from hal.pixels import Pixels
from host.rig import Bytes


def test_the_sticks_show_which_fell_flat():
    px = Pixels(3, None)
    Faces(px, ()).show_sticks((0, 1, 2), 0b101, (9, 9, 9), (1, 0, 0))
    assert list(px.frame) == [9, 9, 9, 1, 0, 0, 9, 9, 9]


def test_faces_light_the_classic_pips():
    assert [bin(m).count("1") for m in FACES[1:]] == [1, 2, 3, 4, 5, 6]
    px = Pixels(14, None)
    faces = Faces(px, ((0, 1, 2, 3, 4, 5, 6), (7, 8, 9, 10, 11, 12, 13)))
    faces.show(1, 5, (9, 9, 9))
    lit = [i for i in range(14) if px.frame[3 * i]]
    assert lit == [7, 8, 10, 12, 13]  # four corners and the centre
    faces.clear(1)
    assert not any(px.frame)


def test_the_tumble_rattles_then_settles_on_the_result():
    px = Pixels(14, None)
    faces = Faces(px, ((0, 1, 2, 3, 4, 5, 6), (7, 8, 9, 10, 11, 12, 13)))
    tumble = Tumble(faces, (50, 50, 50))
    tumble.start(1000, (3, 6))
    shown = set()
    now = 1000
    while not tumble.draw(now):
        shown.add(bytes(px.frame))
        now += 20
    assert len(shown) >= 5  # the faces changed while tumbling
    assert now - 1000 >= TUMBLE_MS
    pips = [i for i in range(14) if px.frame[3 * i]]
    assert pips == [0, 3, 6, 7, 8, 9, 11, 12, 13]  # a 3 and a 6


def test_the_tumbling_faces_change_on_the_clocks_marks_so_none_stands_longer_than_a_step():
    # frames go out on the clock's 20 ms marks: a face that changed between two
    # marks would show from one mark to the mark after its next change, 20 ms more
    px = Pixels(14, None)
    tumble = Tumble(Faces(px, ((0, 1, 2, 3, 4, 5, 6), (7, 8, 9, 10, 11, 12, 13))), (50, 50, 50))
    for start in (1000, 1013, 1031):
        tumble.start(start, (3, 6))
        now, last, changes = start, None, []
        while not tumble.draw(now):
            if bytes(px.frame) != last:
                last = bytes(px.frame)
                changes.append(now)
            now += 1
        assert all(t % TUMBLE_STEP_MS == 0 for t in changes[1:]), start
        assert max(b - a for a, b in zip(changes, changes[1:])) == TUMBLE_STEP_MS


def test_the_first_six_wins_the_pop_off():
    duel = PopOff(Chance(Bytes([2, 4, 5, 0, 3])), (1, 0))
    assert duel.press(0) == 3 and duel.winner == -1
    assert duel.press(1) == 5
    assert duel.press(1) == 6 and duel.winner == 0  # roller 1 is player 0's
    assert duel.press(0) == 0  # over: later presses roll nothing
