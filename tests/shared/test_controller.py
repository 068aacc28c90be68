"""The controller on a simulated board: timed inputs in, lights and decisions out.

Each scenario is a table of actions and what the players must then see.
Actions: ("press", button), ("hold", button), ("lift", space), ("put", space),
("turn", wheel, quarters[, ms to wait after]), ("beam", pocket) (a counter drops
through it), ("wait", ms). Checks: ("phase", name), ("legal", notation...),
("played", notation...) (the steps applied so far, as the record names them),
("lit", space, look) where a look is one of
    "movable" "target" "wrong" "needed" "piece" "idle" "dark"
and ("wheel", w, look), ("dice", value...).
"""

from app import colours as C
from hal.buttons import CLICK, PRESS, STABLE_MS, Button
from app.controller import FRAME_MS, PASS_US, Controller
from app.die import FACES, TUMBLE_STEP_MS
from host.rig import Bytes, Rig, SimBoard
from rules.core import PHASE_NAMES
from rules.games import new_game
from support import board_data

# the tests that break a part on purpose: the controller counts the faults (tests/conftest.py)
FAULTS_EXPECTED = ("test_a_fault_in_one_input_is_logged_and_the_rest_keeps_working",)


class Recorder:
    """A keeper that remembers the record lines instead of writing files."""

    def __init__(self):
        self.lines = []
        self.failing = ""

    @property
    def steps(self):
        return len(self.lines)

    def played(self, record_line, game, last=True):
        self.lines.append(list(record_line.values())[0])

    def begin(self, game):
        self.lines = []


def start(name, players=2, options=None, steps=(), dice=(0,), sensors=True):
    """A rig on a game after ``steps`` (notation) were played by the rules."""
    game = new_game(name, board_data(name), players, options)
    for text in steps:
        game.play_text(text)
    rig = Rig(game, Bytes(dice), sensors=sensors, keeper=Recorder())
    return rig


def colours_at(rig, led, ms=500):
    """The frame colours one pixel shows over ``ms`` (before brightness)."""
    seen = []
    frame = rig.ctl.ports.pixels.frame
    end = rig.now + ms
    while rig.now < end:
        rig.run(20)
        colour = (frame[3 * led], frame[3 * led + 1], frame[3 * led + 2])
        if colour not in seen:
            seen.append(colour)
    return seen


def look(rig, sid):
    """What a space shows, in the colour language's words."""
    seen = colours_at(rig, rig.game.board.leds[rig.space(sid)])
    if C.RED in seen and len(seen) > 1:
        return "wrong"
    if C.AMBER in seen and len(seen) > 1:
        return "needed"
    if seen == [C.WHITE]:
        return "target"
    if len(seen) > 3:
        return "movable"  # breathing
    if len(seen) == 1 and seen[0] in (C.SPACE, C.SPECIAL):
        return "idle"
    if seen == [C.OFF]:
        return "dark"
    if len(seen) == 1:
        return "piece"
    return "other %r" % (seen,)


def wheel_look(rig, w):
    cells = rig.game.board.wheel_cells[9 * w:9 * w + 9]
    seen = colours_at(rig, rig.game.board.leds[cells[0]])
    return "wrong" if C.RED in seen and len(seen) > 1 else "calm"


def run(rig, table):
    for row in table:
        verb = row[0]
        if verb == "press":
            rig.press(row[1])
        elif verb == "hold":
            rig.hold(row[1])
        elif verb == "lift":
            rig.lift(row[1])
        elif verb == "put":
            rig.put(row[1])
        elif verb == "turn":
            rig.turn(row[1], row[2], *row[3:])
        elif verb == "beam":
            rig.beam(row[1])
        elif verb == "wait":
            rig.run(row[1])
        elif verb == "phase":
            assert PHASE_NAMES[rig.game.phase] == row[1], (row, PHASE_NAMES[rig.game.phase])
        elif verb == "legal":
            assert [rig.game.notation(d) for d in rig.game.legal()] == list(row[1:]), \
                (row, [rig.game.notation(d) for d in rig.game.legal()])
        elif verb == "played":
            assert rig.ctl.keeper.lines == list(row[1:]), (row, rig.ctl.keeper.lines)
        elif verb == "lit":
            got = look(rig, row[1])
            assert got == row[2], (row, got)
        elif verb == "wheel":
            got = wheel_look(rig, row[1])
            assert got == row[2], (row, got)
        elif verb == "dice":
            assert rig.ctl.roll == row[1], (row, rig.ctl.roll)
        else:
            raise ValueError(row)


# -- Detour ------------------------------------------------------------------------

# bytes 2 and 4 roll 3 and 5 (a byte b gives b % 6 + 1)
DETOUR_TURN = (
    ("phase", "roll"),
    ("press", 0), ("dice", (3, 5)), ("phase", "decide"),
    # the pieces go onto the STARTs first: the board asks for them
    ("lit", "d1", "needed"), ("lit", "a4", "needed"),
    ("put", "d1"), ("put", "a4"),
    ("lit", "d1", "movable"), ("lit", "a4", "movable"),
    ("lift", "d1"), ("lit", "g1", "target"), ("lit", "d1", "piece"),
    ("put", "g1"), ("played", "3,5", "a3"),
    ("lit", "g1", "piece"), ("lit", "a4", "movable"),
    ("lift", "a4"), ("put", "b6"), ("played", "3,5", "a3", "b5"),
    ("phase", "roll"),
)


def test_detour_a_whole_turn_roll_place_and_move_two_pieces():
    run(start("detour", dice=(2, 4)), DETOUR_TURN)


def test_detour_a_piece_the_rules_put_on_start_is_asked_for_not_taken_as_lifted():
    run(start("detour", dice=(2, 4)), (
        ("press", 0), ("put", "d1"),
        ("lit", "a4", "needed"), ("lit", "b6", "idle"),  # not a piece in the hand with its destinations
        ("put", "g13"), ("lit", "g13", "wrong"), ("played", "3,5"), ("lift", "g13"),
        ("put", "b6"), ("played", "3,5", "b5"),  # straight from the hand to where it may go: still its move
    ))


def test_detour_any_legal_move_is_accepted_not_only_the_first_lit():
    rig = start("detour", dice=(2, 4))
    run(rig, (("press", 0), ("put", "d1"), ("put", "a4")))
    last = rig.ctl.moves[-1]
    text = rig.game.notation(last[0])
    ids = rig.game.board.ids
    run(rig, (("lift", ids[last[1]]), ("put", ids[last[2]])))
    assert rig.ctl.keeper.lines[-1] == text == "b5"


# a position where player 1's piece a lands on a star with a 2 (e3 -> c3 on wheel 4)
TO_STAR = ("1,4", "a1", "b4", "1,4", "b4", "P1", "S1", "a1", "P1", "S1", "6,3", "a3", "b6", "2,2", "b2", "a2",
           "3,4", "a3", "b4", "3,1", "a3", "b1", "3,2")


def test_detour_a_star_landing_waits_for_one_wheel_turn():
    run(start("detour", steps=TO_STAR), (
        ("lift", "e3"), ("put", "c3"), ("phase", "wheel"), ("played", "a2"),
        ("turn", 0, 1), ("played", "a2", "W1+"), ("phase", "decide"),
        ("wheel", 0, "calm"),
    ))


def test_detour_a_wheel_lights_the_positions_its_route_runs_through_and_no_others():
    # wheel 1 at position 0 goes round its corner f10; a quarter turn clockwise carries that corner to f12
    run(start("detour", steps=TO_STAR), (
        ("lit", "f10", "idle"), ("lit", "f12", "dark"), ("lit", "h12", "dark"), ("lit", "h10", "dark"),
        ("lift", "e3"), ("put", "c3"), ("turn", 0, 1), ("played", "a2", "W1+"),
        ("lit", "f12", "idle"), ("lit", "f10", "dark"), ("lit", "h12", "dark"), ("lit", "h10", "dark"),
    ))


def test_detour_two_wheels_turned_show_red_and_change_nothing_until_one_is_turned_back():
    run(start("detour", steps=TO_STAR), (
        ("lift", "e3"), ("put", "c3"),
        ("turn", 0, 1, 200), ("turn", 1, -1),  # the second within the first's settling time
        ("phase", "wheel"), ("played", "a2"), ("wheel", 0, "wrong"), ("wheel", 1, "wrong"),
        ("turn", 0, -1), ("played", "a2", "W2-"), ("wheel", 1, "calm"), ("phase", "decide"),
    ))


def test_detour_a_wheel_turned_without_the_right_is_shown_until_turned_back():
    run(start("detour", dice=(2, 4)), (
        ("turn", 2, 1), ("wheel", 2, "wrong"),
        ("press", 0), ("phase", "roll"),  # the die waits for the board to be put right
        ("turn", 2, -1), ("wheel", 2, "calm"),
        ("press", 0), ("phase", "decide"), ("played", "3,5"),
    ))


def test_detour_a_piece_on_a_turning_wheel_turns_with_it():
    # player 2 has landed on a star; player 1's piece a stands on g2, a cell of wheel 3
    rig = start("detour", steps=("2,1", "a2", "b1", "5,3", "a3", "b5", "2,6", "a2", "b6", "4,1", "b4"))
    run(rig, (("phase", "wheel"), ("lit", "g2", "piece"), ("turn", 2, 1), ("played", "W3+"),
              ("lit", "f3", "piece"), ("lit", "g2", "idle")))
    # the disc carried it a quarter clockwise, from the south arm's position to the west arm's:
    # onto that position's sensor, where the rules put it, and under its LED
    assert rig.game.board.ids[rig.game.pos[0]] == "f3"
    assert not rig.snap.disagrees


# player 2's piece a lands on player 1's piece on e1: a pop-off
TO_CAPTURE = ("1,4", "a1", "b4", "1,4")


def test_detour_landing_on_a_piece_starts_a_pop_off_and_the_loser_goes_to_a_start():
    run(start("detour", steps=TO_CAPTURE, dice=(0, 5)), (
        ("lift", "e1"), ("lift", "d1"),  # lift the piece landed on, then your own
        ("lit", "e1", "target"),
        ("put", "e1"), ("played", "a1"), ("phase", "popoff"),
        ("press", 0), ("phase", "popoff"),  # a 1 for the attacker
        ("press", 1), ("played", "a1", "P1"),  # a 6 for the defender: player 1 wins the duel
        ("phase", "decide"),
        ("lift", "e1"), ("put", "d1"), ("played", "a1", "P1", "S1"),  # the attacker goes to a START
        ("lit", "e1", "needed"),  # the defender goes back on its space
        ("put", "e1"), ("lit", "e1", "piece"),
    ))


def test_detour_a_piece_lifted_that_may_not_move_asks_to_be_put_back():
    run(start("detour", steps=TO_CAPTURE), (
        ("lift", "e1"), ("lit", "e1", "needed"), ("lit", "d1", "movable"),
        ("put", "e1"), ("lit", "e1", "piece"), ("played",),
    ))


def test_detour_a_piece_put_where_no_legal_move_leads_is_red_and_may_go_on_to_a_legal_space():
    run(start("detour", steps=TO_CAPTURE), (
        ("lift", "a4"), ("put", "a6"), ("lit", "a6", "wrong"), ("played",), ("phase", "decide"),
        ("lift", "a6"), ("put", "a5"), ("played", "b1"),
    ))


def test_detour_two_pieces_lifted_are_both_asked_for():
    run(start("detour", steps=TO_CAPTURE), (
        ("lift", "d1"), ("lift", "a4"), ("lit", "d1", "needed"), ("lit", "a4", "needed"),
        ("put", "a4"), ("lit", "d1", "piece"), ("lit", "a4", "movable"),
    ))


def test_detour_a_stuck_sensor_reads_as_a_piece_where_none_is():
    run(start("detour", steps=TO_CAPTURE), (
        ("put", "g13"), ("lit", "g13", "wrong"), ("played",),
        ("lift", "g13"), ("lit", "g13", "idle"),
    ))


def test_detour_of_two_stray_pieces_the_one_left_stays_red_and_the_one_taken_away_goes_dark():
    run(start("detour", steps=TO_CAPTURE), (
        ("put", "g13"), ("put", "g12"), ("lit", "g13", "wrong"), ("lit", "g12", "wrong"),
        ("lift", "g13"), ("lit", "g13", "idle"), ("lit", "g12", "wrong"),
        ("lift", "g12"), ("lit", "g12", "idle"), ("played",),
    ))


def test_detour_without_sensors_a_button_picks_the_move():
    rig = start("detour", dice=(2, 4), sensors=False)
    run(rig, (("press", 0), ("phase", "decide"), ("legal", "a3", "a5", "b3", "b5")))
    run(rig, (("press", 0), ("press", 0), ("hold", 0), ("played", "3,5", "b3")))
    run(rig, (("hold", 0), ("played", "3,5", "b3", "a5"), ("phase", "roll")))


# -- Sniggle -------------------------------------------------------------------------

def test_sniggle_opening_throws_then_a_turn_of_two_moves():
    # bytes give dice b % 6 + 1: opening 1,2 and 6,5 (player 2 starts), then 3,4
    run(start("sniggle", dice=(0, 1, 5, 4, 2, 3)), (
        ("press", 0), ("phase", "roll"), ("press", 1), ("played", "1,2", "6,5"),
        ("lit", "SB1", "piece"),  # player 2 has not thrown yet
        ("press", 0), ("played", "1,2", "6,5", "3,4"),
        ("lit", "SB1", "movable"),
        ("lift", "SB1"), ("lit", "d3", "target"),
        ("put", "d3"), ("played", "1,2", "6,5", "3,4", "1:3>d3"),
        ("lift", "SB2"), ("lit", "d3", "piece"),
    ))


def find(name, players, options, wanted, seed=3):
    """Steps of a seeded random game up to the first position ``wanted(game)`` likes."""
    from rules.playout import Rng, random_step

    game = new_game(name, board_data(name), players, options)
    rng = Rng(seed)
    steps = []
    while not game.over():
        found = wanted(game)
        if found:
            return tuple(steps), found
        step = random_step(game, rng)
        steps.append(game.notation(step))
        game.play(step)
    raise AssertionError("no such position")


def capture(game):
    """A move that lands on another player's piece, the only one from its
    space to that space, as (from, to, notation)."""
    owners = game.owners()
    moves = game.moves() if game.phase == 1 else ()
    for d, f, t in moves:
        if owners[t] != 255 and owners[t] != game.turn and [m[1:] for m in moves].count((f, t)) == 1:
            ids = game.board.ids
            return ids[f], ids[t], game.notation(d)
    return None


def test_sniggle_a_captured_piece_is_asked_for_on_its_start():
    steps, (f, t, text) = find("sniggle", 2, None, capture)
    rig = start("sniggle", steps=steps)
    victim = rig.game.occupant(rig.space(t))
    run(rig, (("lift", t), ("lift", f), ("put", t), ("played", text)))
    home = rig.game.board.ids[rig.game.pos[victim]]
    run(rig, (("lit", home, "needed"), ("put", home), ("lit", home, "piece")))
    assert not rig.snap.disagrees


# -- Mehen ---------------------------------------------------------------------------

def test_mehen_sticks_then_a_marble_or_a_lion_from_the_tail_is_picked_with_the_button():
    # byte 1: one stick flat side up, a throw of 1
    rig = start("mehen", options={"hunt": True, "lions": 2}, dice=(1,))
    run(rig, (("press", 0), ("played", "FRR"), ("lit", "2", "target")))
    # a marble and a lion look alike to the sensors: the button says which
    run(rig, (("put", "2"), ("played", "FRR")))
    assert [rig.game.notation(d) for d in rig.ctl.choice] == ["a", "L1"]
    assert not rig.snap.disagrees  # the piece is down where it belongs, whichever it is
    run(rig, (("press", 0), ("hold", 0), ("played", "FRR", "L1")))
    assert rig.game.owners()[rig.space("2")] == 254


def test_mehen_identical_marbles_need_no_choice():
    rig = start("mehen", dice=(1,))
    run(rig, (("press", 0), ("put", "2"), ("played", "FRR", "a"), ("lit", "2", "piece")))


# -- Tiddlee Snuka --------------------------------------------------------------------

def test_snuka_a_pot_is_picked_with_the_button_and_scored():
    rig = start("snuka")
    run(rig, (("phase", "decide"), ("hold", 0), ("played", "R")))
    assert rig.game.scores == [1, 0]
    # the next candidates begin again at the first; click on to a miss and confirm it
    legal = [rig.game.notation(d) for d in rig.game.legal()]
    for _ in range(legal.index("miss")):
        rig.press(0)
    run(rig, (("hold", 0), ("played", "R", "miss")))
    assert rig.game.turn == 1


# -- every game --------------------------------------------------------------------------

def test_a_long_press_on_button_two_offers_a_new_game_and_a_second_confirms_it():
    rig = start("detour", dice=(2, 4))
    run(rig, (("press", 0), ("played", "3,5"), ("hold", 1), ("phase", "decide"),
              ("press", 0), ("phase", "decide"), ("played", "3,5")))  # a click keeps the game
    run(rig, (("hold", 1), ("hold", 1), ("phase", "roll"), ("played",)))


def test_a_fault_in_one_input_is_logged_and_the_rest_keeps_working():
    logged = []
    game = new_game("detour", board_data("detour"), 2)
    rig = Rig(game, Bytes((2, 4)), keeper=Recorder(), log=logged.append)

    def broken():
        raise OSError("shift register chain unplugged")

    rig.ctl.ports.sensors._read = broken
    run(rig, (("press", 0), ("played", "3,5")))
    assert logged and "unplugged" in logged[0]
    assert rig.ctl.faults > 1 and len(logged) <= 20  # logged, not flooded


def test_every_pixel_frame_stays_within_the_current_budget():
    rig = start("sniggle", dice=(5, 5))
    pixels = rig.ctl.ports.pixels
    pixels.fill(255, 255, 255)
    pixels.show()
    assert pixels.draw_ma <= pixels.budget_ma
    run(rig, (("press", 0), ("wait", 300)))
    assert 0 < pixels.draw_ma <= pixels.budget_ma


def test_snuka_a_click_through_the_choices_lights_the_next_at_once_whatever_the_clock():
    # the choice picked flashes white; a click's frame shows the next one lit
    # wherever the clock stands in the flash, not once the flash comes round
    for offset in range(0, 4 * C.FLASH_MS, 20):
        rig = start("snuka")
        rig.run(offset)
        rig.sim.press(0)
        rig.run(60)
        rig.sim.release(0)
        rig.run(STABLE_MS + rig.STEP_MS)  # the click is known: its frame is drawn
        board = rig.game.board
        decision = rig.ctl.picked[1]
        space = board.spots[decision[1]][0] if len(decision) > 1 else board.pockets[0]
        frame = rig.ctl.ports.pixels.frame
        led = board.leds[space]
        assert (frame[3 * led], frame[3 * led + 1], frame[3 * led + 2]) == C.WHITE, (offset, decision)


def test_a_press_of_button_one_lights_the_pick_held_at_once_and_its_click_moves_on():
    # the board answers the touch, not only the release: the pick a long press
    # would take shines steadily while the button is down, wherever the flash stood
    for offset in range(0, 2 * C.FLASH_MS, 10):
        rig = start("snuka")
        rig.run(offset)
        held = rig.ctl.picked[1]
        sent = rig.sim.frames
        rig.sim.press(0)
        rig.run(rig.STEP_MS)
        board = rig.game.board
        space = board.spots[held[1]][0] if len(held) > 1 else board.pockets[0]
        led = board.leds[space]
        frame = rig.ctl.ports.pixels.frame
        assert rig.sim.frames > sent and tuple(frame[3 * led:3 * led + 3]) == C.HELD, offset
        rig.run(100)
        assert tuple(frame[3 * led:3 * led + 3]) == C.HELD, offset  # steady while held
        rig.sim.release(0)
        rig.run(STABLE_MS + rig.STEP_MS)
        assert rig.ctl.picked[1] != held and not rig.ctl.holding  # the click stepped on


def test_between_the_flash_writes_of_a_save_the_tumbling_dice_go_on():
    # a save's erase holds the CPU for 45 ms; between two flash writes the
    # frame an animation is due for goes out, and none that is not due
    rig = start("detour", dice=(2, 4))
    run(rig, (("press", 0), ("wait", 10)))
    sent = rig.sim.frames
    rig.ctl.animate(rig.now + 1)  # a frame went out a moment ago: none is due
    assert rig.sim.frames == sent
    rig.ctl.animate(rig.now + 2 * TUMBLE_STEP_MS)  # the dice show another face by then
    assert rig.sim.frames == sent + 1


def test_no_animation_frame_is_sent_while_a_click_of_button_one_is_being_known():
    # the counters on breathe, a frame every 20 ms; but from a release until the
    # click is known the loop keeps reading the button instead (on a Pico a frame
    # held off the next read by a few ms, and the click waits for STABLE_MS of quiet)
    for offset in range(0, 20):
        rig = start("snuka")
        rig.run(offset)
        rig.sim.press(0)
        rig.run(60)
        picked = rig.ctl.picked
        rig.sim.release(0)
        sent = rig.sim.frames
        while rig.ctl.picked is picked:
            rig.now += 1
            rig.ctl.tick(rig.now)
        assert rig.sim.frames == sent + 1, offset  # the click's own frame only


def test_snuka_a_counter_through_a_pocket_beam_puts_the_pots_first():
    rig = start("snuka", steps=("R", "miss"))  # player 2 to shoot, red on
    run(rig, (("press", 0), ("press", 0)))  # clicked on past the first candidates
    assert rig.game.notation(rig.ctl.picked[1]) != "R"
    # a counter drops through: its beam is broken for less than one pass of the loop
    run(rig, (("beam", "TM"), ("hold", 0), ("played", "R")))
    assert rig.game.scores == [1, 1]


def test_a_long_press_on_button_one_lights_a_suggested_move():
    rig = start("detour", steps=TO_CAPTURE)
    rig.ctl.hint_ms = 100
    run(rig, (("hold", 0), ("played",)))
    f, t = rig.ctl.hint
    assert (f, t) in [m[1:] for m in rig.ctl.moves]
    seen = colours_at(rig, rig.game.board.leds[t], 1200)
    assert C.WHITE in seen and len(seen) > 1  # blinking slowly
    ids = rig.game.board.ids
    if rig.ctl.expected[t]:
        rig.lift(ids[t])  # the suggested move lands on a piece
    run(rig, (("lift", ids[f]), ("put", ids[t])))
    assert rig.ctl.hint is None and len(rig.ctl.keeper.lines) == 1


def twins(game):
    """Two moves of one piece to one space with different dice, as (from, to, notations)."""
    moves = game.moves() if game.phase == 1 else ()
    for d, f, t in moves:
        same = [m[0] for m in moves if m[1:] == (f, t)]
        if len(same) == 2 and game.owners()[t] == 255:
            ids = game.board.ids
            return ids[f], ids[t], [game.notation(m) for m in same]
    return None


def test_sniggle_when_two_dice_reach_the_same_space_the_die_face_shows_the_one_on_offer():
    steps, (f, t, texts) = find("sniggle", 2, None, twins)
    rig = start("sniggle", steps=steps)
    run(rig, (("lift", f), ("put", t), ("played",)))
    assert [rig.game.notation(d) for d in rig.ctl.choice] == texts
    dice = [int(text.split(":")[1].split(">")[0]) for text in texts]
    middle_left = rig.game.board.extras["die1"][2]  # a pip some faces light and others not
    first = colours_at(rig, middle_left, 100)
    run(rig, (("press", 0),))
    second = colours_at(rig, middle_left, 100)
    lit = {v: [C.WHITE] if FACES[v] >> 2 & 1 else [C.OFF] for v in dice}
    assert (first, second) == (lit[dice[0]], lit[dice[1]])
    run(rig, (("hold", 0), ("played", texts[1])))


def centre(game):
    """A piece on the centre star, as (from, [(to, notation)...]) of its moves."""
    moves = game.moves() if game.phase == 1 else ()
    free = [(game.board.ids[t], game.notation(d)) for d, f, t in moves if d[0] == "m" and d[3] >= 0]
    if len(free) >= 8:
        return game.board.ids[[m for m in moves if m[0][0] == "m" and m[0][3] >= 0][0][1]], free
    return None


def test_detour_from_the_centre_star_the_piece_may_leave_by_any_heading():
    steps, (f, free) = find("detour", 2, None, centre, seed=1)
    rig = start("detour", steps=steps)
    ends = [t for t, _ in free]
    t, text = [m for m in free if ends.count(m[0]) == 1][-1]  # a destination only one heading reaches
    run(rig, (("lift", f),) + tuple(("lit", end, "target") for end in ends[:2]) + (("put", t), ("played", text)))


def test_at_rest_every_space_of_every_board_glows_on_the_wire_but_the_wheel_positions_off_the_route():
    for name in ("detour", "sniggle", "mehen", "snuka"):
        rig = start(name)
        board = rig.game.board
        wire = rig.ctl.ports.pixels.wire
        dark = [board.ids[s] for s in range(len(board.ids)) if not any(wire[3 * board.leds[s]:3 * board.leds[s] + 3])]
        off = [board.ids[s] for s in range(len(board.ids)) if board.kinds[s] == "wheel" and not board.mask(s, rig.game.wheels)]
        assert dark == off, (name, dark)
        assert len(off) == (12 if name == "detour" else 0)  # three corners of each of Detour's four wheels


def test_sniggle_pieces_light_in_the_colours_the_players_chose():
    rig = start("sniggle", options={"colours": "GY"})
    frame = rig.ctl.ports.pixels.frame
    led = rig.game.board.leds[rig.game.pos[0]]  # player 1's first piece
    r, g, b = frame[3 * led:3 * led + 3]
    assert g > 2 * r and g > 2 * b  # green


def test_at_power_up_the_pieces_standing_are_read_before_the_board_is_judged():
    game = new_game("detour", board_data("detour"), 2)
    for text in TO_CAPTURE:
        game.play_text(text)
    before = game.save()
    sim = SimBoard(game.board, wheels=4)
    for s in range(len(game.board.ids)):
        if game.occupancy()[s]:
            sim.put(s)
    ctl = Controller(game, sim.ports(Bytes((0,))), log=lambda text: None)
    for now in range(1000, 1300, 5):  # the sensors need 300 ms to report a piece standing
        ctl.tick(now)
        snap = ctl.snapshot
        assert (snap.extra, snap.missing, snap.wrong_wheels) == ((), (), ()) and snap.hand < 0
    for now in range(1300, 1700, 5):
        ctl.tick(now)
    assert not ctl.snapshot.disagrees and game.save() == before and ctl.faults == 0


def test_a_resumed_game_does_not_move_by_itself_while_the_standing_pieces_are_read():
    # player 2 may move a marble from the tail stack onto square 3, where player 1's stands:
    # the pieces reported one by one at power-up must not look like that move
    rig = start("mehen", steps=("FFR", "a", "FFR"), dice=(3,))
    assert rig.game.marbles == [2, 0, 0, 0, 0, 0] and rig.game.phase == 1 and not rig.snap.disagrees


def test_the_loop_allocates_nothing_while_the_board_animates():
    # what the Pico's loop does between two steps: poll every input, paint and
    # send a frame every FRAME_MS (the pieces breathe), with a piece in the hand
    import gc

    if not hasattr(gc, "mem_alloc"):
        return  # CPython has no allocation counter; this is a MicroPython figure
    def single(game):
        """A piece alone on its space that may move, with somewhere to go, and another that may move too."""
        counts = game.occupancy()
        moves = game.moves() if game.phase == 1 else ()
        for _, f, t in moves:
            if counts[f] == 1 and f != t and any(m[1] != f for m in moves):
                return f
        return None

    for name in ("detour", "sniggle", "mehen"):
        steps, lifted = find(name, 2, None, single)
        rig = start(name, steps=steps)
        sent = [0]

        def transmit(wire):
            sent[0] += 1

        rig.ctl.ports.pixels._transmit = transmit
        rig.sim.lift(lifted)
        rig.run(300)
        assert rig.snap.hand == lifted
        before = gc.mem_alloc()
        frames = sent[0]
        rig.run(400)
        assert gc.mem_alloc() - before == 0, "%s: %d bytes" % (name, gc.mem_alloc() - before)
        assert sent[0] - frames >= 15, (name, sent[0] - frames)  # a frame every FRAME_MS (20 ms): it breathes
    # Tiddlee Snuka: a counter dropped through a pocket, the pot on offer flashing
    rig = start("snuka")
    rig.ctl.ports.pixels._transmit = lambda wire: None
    rig.beam("TL")
    rig.press(0)
    rig.run(300)
    before = gc.mem_alloc()
    rig.run(400)
    assert gc.mem_alloc() - before == 0 and rig.ctl.picked is not None


def test_the_loop_sleeps_until_a_release_is_known_when_that_comes_before_its_next_poll():
    rig = start("detour")
    level, us = [1], [0]
    button = Button(lambda: level[0], clock=lambda: us[0])
    rig.ctl.ports.buttons = (button,) + tuple(rig.ctl.ports.buttons[1:])

    def poll(ms):
        us[0] = ms * 1000
        return button.poll(ms)

    poll(0)
    poll(10)
    level[0] = 0
    assert poll(11) == PRESS
    assert rig.ctl.pause_us(1000) == 1000  # held: nothing to wait for
    level[0] = 1
    assert poll(300) is None  # open: known 5 ms on
    us[0] = 301000
    assert rig.ctl.pause_us(1000) == 1000  # a pass after the usual pause still comes first
    us[0] = 300000 + 5000 - (1000 + PASS_US) + 1
    assert rig.ctl.pause_us(1000) == 5000 - (us[0] - 300000)  # it would not: wait for the release
    us[0] = 305500
    assert rig.ctl.pause_us(1000) == 0
    assert poll(305.5) == CLICK
    assert rig.ctl.pause_us(1000) == 1000


class IrqPin:
    """A die button's pin with the Pico's pin interrupt: ``touch()`` closes
    the contact between two polls, and its edge runs the handler."""

    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self):
        self.level = 1

    def __call__(self):
        return self.level

    def irq(self, handler=None, trigger=0, hard=False):
        self.handler = handler

    def touch(self):
        self.level = 0
        self.handler(self)


def test_a_press_that_comes_during_a_pass_is_answered_before_the_animation_frame_due_then():
    # Detour's dice breathe at the roll: a frame every FRAME_MS. A press that
    # comes after the buttons were read would find the wire holding that frame
    # for 6 ms; the frame is left to the next pass, which answers the press
    rig = start("detour")
    pin = IrqPin()
    rig.ctl.ports.buttons = (Button(pin),) + tuple(rig.ctl.ports.buttons[1:])
    sensors = rig.ctl.ports.sensors
    read = sensors._read
    touch = []

    def bits():  # the sensor chain is read after the buttons, in the same pass
        if touch:
            touch.pop().touch()
        return read()

    sensors._read = bits
    ctl, sim = rig.ctl, rig.sim
    rig.run(100)
    mark = rig.now + FRAME_MS - rig.now % FRAME_MS
    for now in range(rig.now, mark, 5):
        ctl.tick(now)
    frames = sim.frames
    ctl.tick(mark)
    assert sim.frames == frames + 1  # at rest: the breathing frame goes out at its mark
    mark += FRAME_MS
    for now in range(mark - FRAME_MS + 5, mark, 5):
        ctl.tick(now)
    frames = sim.frames
    touch.append(pin)
    ctl.tick(mark)
    assert sim.frames == frames and ctl.pause_us(1000) == 0  # left to the pass that reads the press, at once
    assert not ctl.snapshot.roll
    ctl.tick(mark + 1)
    assert sim.frames == frames + 1 and ctl.snapshot.roll  # the dice tumble in the next frame
