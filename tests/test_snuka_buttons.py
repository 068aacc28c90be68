"""Tiddlee Snuka's own buttons on the 74HC165 chain, pressed on the simulated
board: each picks the step it names at once, a foul kind's button waits for
the counter's, and a button that names nothing legal changes nothing and
blinks red where it points. The die buttons keep stepping through the
choices, and a board file without the buttons plays with them alone."""

from hypothesis import given, settings
from hypothesis import strategies as st

from app import colours as C
from host.rig import Bytes, Rig
from rules.games import new_game
from rules.snuka import BUTTONS
from support import board_data
from test_controller import Recorder, colours_at, look, run, start


def snuka(steps=(), players=2, **options):
    return start("snuka", players, options, steps)


def press(rig, *names):
    for name in names:
        rig.button(name)


def played(rig):
    return rig.ctl.keeper.lines


def test_a_colour_button_pots_that_counter_and_scores_it():
    rig = snuka()
    press(rig, "red")
    assert played(rig) == ["R"] and rig.game.scores == [1, 0]
    # every colour is on now: the black's button pots the black, which waits to be put back
    press(rig, "black")
    assert played(rig) == ["R", "K"] and rig.game.scores == [8, 0]
    assert look(rig, "black") == "needed"
    # its button again: it is back on its spot, and red is on again
    press(rig, "black")
    assert played(rig) == ["R", "K", "@K"] and rig.game.on_now() == (0,)


def test_a_button_held_down_is_one_press():
    rig = snuka()
    rig.button("red", hold=3000)
    assert played(rig) == ["R"]


def test_a_foul_is_its_kind_then_the_counter_that_fouled():
    rig = snuka()
    press(rig, "foul_off")
    assert played(rig) == []
    # which counter? the spot of every counter in play flashes white
    assert C.WHITE in colours_at(rig, rig.game.board.leds[rig.space("green")])
    assert C.WHITE in colours_at(rig, rig.game.board.leds[rig.space("r1")])
    press(rig, "green")
    assert played(rig) == ["G!off"] and rig.game.scores == [-3, 0] and rig.game.turn == 1
    press(rig, "green")  # put back on its spot
    press(rig, "foul_stuck", "foul_onto", "red")  # the second kind named replaces the first
    assert played(rig) == ["G!off", "@G", "R!onto"] and rig.game.scores == [-3, -1]


def test_a_foul_kind_named_and_left_lapses():
    rig = snuka()
    press(rig, "foul_off")
    rig.run(6000)
    assert rig.snap.named == -1
    press(rig, "red")
    assert played(rig) == ["R"]


def test_miss_and_safe_end_the_turn():
    rig = snuka(players=3)
    press(rig, "miss", "safe")
    assert played(rig) == ["miss", "safe"] and rig.game.turn == 2 and rig.game.scores == [0, 0, 0]


def test_counters_down_in_one_flick_are_pressed_together():
    rig = snuka()
    rig.button("red", "yellow")  # the yellow pressed while the red is held
    # the red scored; the yellow scores nothing, goes back, and the shot has failed after all
    assert played(rig) == ["R", "+Y"] and rig.game.scores == [1, 0] and rig.game.turn == 1
    press(rig, "yellow")
    # a flick that sends the green off and knocks a red in: the foul, then the red with the green held
    press(rig, "foul_off")
    rig.button("green", "red")
    assert played(rig) == ["R", "+Y", "@Y", "G!off", "+R"] and rig.game.scores == [1, -3]
    assert rig.game.reds == 13 and rig.game.turn == 0
    # held, a button names only the same flick: a miss pressed with it is a miss
    rig.button("green", "miss")
    assert played(rig)[-2:] == ["@G", "miss"] and rig.game.turn == 1


def test_a_second_counter_of_the_same_flick_is_entered_while_the_first_waits():
    rig = snuka(("R",))
    press(rig, "yellow", "green")  # yellow on and potted, green down in the same flick
    assert played(rig) == ["Y", "+G"]
    assert rig.game.scores == [3, 0] and rig.game.turn == 1 and rig.game.pending == [1, 2]
    press(rig, "green", "yellow")  # both back, in the order they are put back
    assert played(rig) == ["Y", "+G", "@G", "@Y"]


def test_a_button_that_names_nothing_legal_blinks_red_and_changes_nothing():
    rig = snuka(("R", "K"))  # the black waits to be put back: no shot can be judged
    before = rig.game.save()
    press(rig, "foul_off")
    assert look(rig, "TL") == "wrong" and look(rig, "BR") == "wrong"
    press(rig, "miss")
    assert rig.game.save() == before and played(rig) == []
    assert look(rig, "TL") == "wrong"
    rig.run(1000)
    assert look(rig, "TL") != "wrong"  # the signal ends
    press(rig, "black")
    assert played(rig) == ["@K"]


def test_a_colour_gone_down_in_the_rotation_is_not_now():
    rig = snuka(("R",) * 15 + ("Y", "@Y", "Y"))  # the reds gone, then the yellow down for good
    assert rig.game.on_now() == (2,)
    press(rig, "yellow")
    assert look(rig, "yellow") == "wrong" and played(rig) == []
    press(rig, "green")
    assert played(rig) == ["G"]


def test_a_button_while_a_new_game_is_offered_only_keeps_the_game():
    rig = snuka(("R",))
    rig.hold(1)
    assert rig.ctl.prompt >= 0
    press(rig, "red")
    assert rig.ctl.prompt < 0 and played(rig) == [] and rig.game.scores == [1, 0]


def test_a_counter_through_a_beam_and_its_colour_button():
    rig = snuka(("R", "miss"))
    rig.beam("TM")
    press(rig, "red")
    assert played(rig) == ["R"] and rig.game.scores == [1, 1]


def test_the_die_button_still_steps_through_the_choices_beside_the_buttons():
    rig = snuka()
    press(rig, "red")
    second = rig.game.notation(rig.ctl.offered[1])
    run(rig, (("press", 0), ("hold", 0)))  # button 1: the next candidate, confirmed
    assert played(rig) == ["R", second]


def test_a_board_file_without_the_buttons_plays_with_button_one():
    data = board_data("snuka")
    del data["buttons"]
    game = new_game("snuka", data, 2)
    rig = Rig(game, Bytes((0,)), keeper=Recorder())
    assert rig.ctl.ports.panel is None and rig.ctl.ports.beams is not None
    run(rig, (("hold", 0), ("played", "R")))


# -- random presses -----------------------------------------------------------------

# one button, two pressed together, a counter through a beam, or die button 1; held, then a pause
PRESSES = st.lists(st.tuples(st.lists(st.sampled_from(BUTTONS), min_size=1, max_size=2) | st.just(["beam"])
                             | st.just(["die"]), st.integers(10, 900), st.integers(0, 300)), max_size=40)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.booleans(), st.booleans(), PRESSES)
def test_random_presses_change_the_game_only_by_a_legal_step(players, nominate, confirm_respot, presses):
    rig = snuka(players=players, nominate=nominate, confirm_respot=confirm_respot)
    for names, hold, gap in presses:
        before = rig.game.copy()
        count = len(played(rig))
        if names == ["beam"]:
            rig.beam("BM", gap)
        elif names == ["die"]:
            rig.press(0, hold)
        else:
            rig.button(*names, hold=hold)
        rig.run(gap)
        # a press is one step at most, and each step was legal where it was played
        new = played(rig)[count:]
        assert len(new) <= len(names), new
        for text in new:
            step = before.parse(text)
            assert step in before.legal()
            before.play(step)
        assert rig.game.save() == before.save()


def test_the_pocket_beams_draw_is_left_out_of_the_pixels_current_budget():
    # six pockets at 23 mA each (hal.beams.BEAM_MA: the emitter and the receiver) come out of the same 5 V as the pixels
    beams = snuka().ctl.ports.pixels
    assert beams.budget_ma == 450 - 6 * 23
    without = Rig(new_game("snuka", board_data("snuka"), 2), Bytes((0,)), sensors=False).ctl.ports.pixels
    assert without.budget_ma == 450
