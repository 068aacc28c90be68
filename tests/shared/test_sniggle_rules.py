"""Sniggle, clause by clause, with scripted throws (seed: 000_b78e5527d5234b54.txt).

Board landmarks used here (see boards/sniggle.md): the main area a1..l10 (row 1
at the bottom); starting squares SR1..SY4 (numbers 1, 2 in the front row under
c1..j1, 3, 4 behind them; SR1 leads to c1, SR2 to g1); the trademark TM above
f10 and g10; the Zone ring Z1..Z28, the left path Z1 -> Z28 and the right path
Z28 -> Z1; matching squares HR1..HY4, red's entered from Z4, Z28, Z11 and Z15.
Safe spaces used: i10 yellow, f3 blue, c2 red.
"""

from rules.core import DECIDE, OVER, ROLL, IllegalMove, RulesError
from rules.sniggle import LETTERS, Sniggle, SniggleBoard, move
from support import board_data, names, raises, texts

_BOARD = []


def sniggle_board():
    if not _BOARD:
        _BOARD.append(SniggleBoard(board_data("sniggle")))
    return _BOARD[0]


def sniggle(players=2, **options):
    return Sniggle(sniggle_board(), players, options)


def started(players=2, first=1, **options):
    """A game past the opening throw, in which player ``first`` (from 1) threw highest."""
    game = sniggle(players, **options)
    for player in range(players):
        game.play((6, 6) if player == first - 1 else (1, 2))
    return game


def piece(game, name):
    """The index of a piece named by colour letter and number (``"B2"``)."""
    return 4 * game.colour.index(LETTERS.find(name[0])) + int(name[1]) - 1


def put(game, name, space, lane=-1):
    """Stand a piece on a space (by id); on a Zone space give its path (0 left, 1 right)."""
    p = piece(game, name)
    game.pos[p] = game.board.space(space)
    game.lane[p] = lane


def home(game, *pieces):
    for name in pieces:
        p = piece(game, name)
        game.pos[p] = game.home_of(p)


def at(game, name):
    return game.board.ids[game.pos[piece(game, name)]]


def legal(game):
    return texts(game, game.legal())


# -- the pieces and the colours ----------------------------------------------


def test_each_player_starts_with_four_numbered_pieces_on_their_starting_squares():
    game = sniggle(4)
    assert [at(game, c + n) for c in "RBGY" for n in "1234"] == [
        "S%s%s" % (c, n) for c in "RBGY" for n in "1234"]
    assert game.players == 4 and len(game.pos) == 16 and game.winner == -1


def test_players_choose_their_colours():
    game = sniggle(2, colours="GY")
    assert at(game, "G1") == "SG1" and at(game, "Y4") == "SY4"
    assert game.piece_name(0) == "G1" and game.piece_name(7) == "Y4"
    for bad in ("R", "RR", "RX", "RBG"):
        assert "colours" in str(raises(RulesError, sniggle, 2, colours=bad))


def test_bad_players_and_options_are_refused_with_a_reason():
    assert "2 to 4" in str(raises(RulesError, sniggle, 5))
    assert "2 to 4" in str(raises(RulesError, sniggle, 1))
    assert "speed" in str(raises(RulesError, sniggle, 2, speed=1))
    assert "larger_die" in str(raises(RulesError, sniggle, 2, larger_die=1))


# -- to start -------------------------------------------------------------------


def test_every_player_throws_and_the_highest_total_goes_first():
    game = sniggle(3)
    assert game.phase == ROLL and game.actor == 0
    assert game.play((1, 3)) == [("threw", 0, (1, 3))] and game.actor == 1
    game.play((4, 5))
    events = game.play((3, 3))
    assert events == [("threw", 2, (3, 3)), ("first", 1), ("turn", 1)]
    assert game.turn == 1 and game.actor == 1 and game.phase == ROLL


def test_tied_highest_throwers_throw_again_then_play_goes_to_the_left():
    game = sniggle(4)
    for dice in ((4, 5), (1, 1), (6, 3), (2, 2)):
        events = game.play(dice)
    assert events[-1] == ("tie", (0, 2)) and game.actor == 0
    game.play((2, 3))  # player 1 again
    assert game.actor == 2
    events = game.play((5, 4))  # player 3 again: 9 beats 5
    assert names(events) == ["threw", "first", "turn"] and game.turn == 2
    order = []
    for _ in range(5):
        order.append(game.turn)
        game.play((1, 2))
        while game.phase == DECIDE:
            game.play(game.legal()[0])
    assert order == [2, 3, 0, 1, 2]


def test_every_throw_is_two_dice_each_outcome_one_in_36():
    game = sniggle()
    for _ in range(3):
        outcomes = game.chance_outcomes()
        assert len(outcomes) == 36 and len(set(o for o, _, _ in outcomes)) == 36
        assert all(n == 1 and d == 36 for _, n, d in outcomes) and game.legal() == ()
        game.play((2, 5))


# -- two dice, two pieces ----------------------------------------------------


def test_each_die_moves_a_different_piece_never_one_piece_the_total():
    game = started()
    put(game, "R1", "e5")
    game.play((1, 2))
    assert "1:1>e6" in legal(game) and "1:2>e7" in legal(game)
    assert not [t for t in legal(game) if t.endswith(">e8")]  # 1 + 2 in one move
    events = game.play_text("1:1>e6")
    assert events == [("moved", 0, 0, game.board.space("e5"), game.board.space("e6"), 1)]
    assert game.phase == DECIDE and all(t[0] != "1" and t[2] == "2" for t in legal(game))
    game.play_text("2:2>g2")
    assert game.phase == ROLL and game.turn == 1


def test_moves_go_forward_and_sideways_never_back_diagonally_or_straight_back():
    game = started()
    put(game, "R1", "e5")
    game.play((1, 2))
    one = [t[4:] for t in legal(game) if t.startswith("1:1")]
    two = [t[4:] for t in legal(game) if t.startswith("1:2")]
    assert sorted(one) == ["d5", "e6", "f5"]  # not e4 (back), nor d6 (diagonal)
    assert sorted(two) == ["c5", "d6", "e7", "f6", "g5"]  # not e5 again (straight back)
    game = started()
    put(game, "R1", "e5")
    game.play((3, 4))
    three = sorted(t[4:] for t in legal(game) if t.startswith("1:3"))
    assert three == ["b5", "c6", "d7", "e6", "e8", "f7", "g6", "h5"]  # e6 by left, up, right


def test_a_back_starting_square_passes_over_the_front_one():
    game = started()
    game.play((1, 2))
    assert [t for t in legal(game) if t[0] == "3"] == ["3:2>c1"]  # SR3 -> over SR1 -> c1
    game = started()
    game.play((2, 3))
    assert sorted(t for t in legal(game) if t[0] == "3") == ["3:2>c1", "3:3>b1", "3:3>c2", "3:3>d1"]


def test_with_one_piece_left_either_die_moves_it_once():
    game = started()
    home(game, "R2", "R3", "R4")
    put(game, "R1", "e5")
    game.play((1, 3))
    assert sorted(set(t[:3] for t in legal(game))) == ["1:1", "1:3"]
    events = game.play_text("1:3>e8")
    assert names(events) == ["moved", "turn"] and game.turn == 1


def test_both_dice_must_be_used_when_some_order_allows_it():
    # R3 and R4 on the right path; R3 moving 4 would take the only space R4 can move 1 to
    game = started()
    home(game, "R1", "R2")
    put(game, "R3", "Z23", 1)
    put(game, "R4", "Z20", 1)
    game.play((4, 1))
    assert legal(game) == ["3:1>Z22", "4:4>Z16"]
    raises(IllegalMove, game.play_text, "3:4>Z19")  # would leave the 1 unplayable
    raises(IllegalMove, game.play_text, "4:1>Z19")  # would leave the 4 unplayable
    game.play_text("4:4>Z16")
    assert legal(game) == ["3:1>Z22"]


def test_a_move_may_free_the_space_the_other_die_needs():
    game = started()
    home(game, "R1", "R2")
    put(game, "R3", "Z23", 1)
    put(game, "R4", "Z22", 1)  # R3 can move 1 only once R4 has left Z22
    game.play((1, 3))
    assert legal(game) == ["3:3>Z20", "4:1>Z21", "4:3>Z19"]


def test_when_only_one_die_can_be_played_only_that_one_is_and_the_other_is_lost():
    game = started()
    home(game, "R3", "R4")
    put(game, "R1", "Z4", 0)  # beside HR1: only a 1 moves it
    put(game, "R2", "Z28", 1)  # beside HR2: only a 1 moves it
    game.play((1, 3))
    assert legal(game) == ["1:1>HR1", "2:1>HR2"]
    events = game.play_text("2:1>HR2")
    assert names(events) == ["moved", "home", "unused", "turn"] and events[2] == ("unused", 0, 3)


def test_either_die_may_be_the_one_played_unless_the_larger_die_option_is_set():
    for larger in (False, True):
        game = started(larger_die=larger)
        home(game, "R3", "R4")
        put(game, "R1", "e5")
        put(game, "R2", "Z28", 1)  # needs exactly 1
        game.play((2, 5))
        dice = sorted(set(t[2] for t in legal(game)))
        assert dice == (["5"] if larger else ["2", "5"])


def test_no_possible_move_loses_the_turn():
    game = started()
    home(game, "R3", "R4")
    put(game, "R1", "Z4", 0)
    put(game, "R2", "Z28", 1)
    events = game.play((3, 5))
    assert names(events) == ["rolled", "lost_turn", "turn"] and game.turn == 1 and game.phase == ROLL


# -- doubles ------------------------------------------------------------------------


def test_doubles_give_another_throw_without_limit():
    game = started()
    for roll in range(8):
        game.play((1 + roll % 3, 1 + roll % 3))
        game.play(game.legal()[0])
        events = game.play(game.legal()[-1])
        assert events[-1] == ("again", 0) and game.turn == 0 and game.phase == ROLL
    game.play((1, 2))
    game.play(game.legal()[0])
    assert game.play(game.legal()[0])[-1] == ("turn", 1)


def test_doubles_move_two_different_pieces_the_same_count():
    game = started()
    put(game, "R1", "e5")
    game.play((2, 2))
    game.play_text("1:2>e7")
    assert [t for t in legal(game) if t[0] == "1"] == [] and all(t[2] == "2" for t in legal(game))


def test_a_double_that_cannot_be_played_loses_the_turn_unless_the_option_says_otherwise():
    for again in (False, True):
        game = started(colours="RY", blocked_double_throws_again=again)
        home(game, "R2", "R3", "R4")
        put(game, "R1", "k10")  # a 2 from k10 only reaches i10 ...
        put(game, "Y1", "i10")  # ... where yellow is safe
        events = game.play((2, 2))
        assert names(events) == ["rolled", "lost_turn", "again" if again else "turn"]
        assert game.turn == (0 if again else 1)


# -- landing, safe spaces, passing ------------------------------------------------------


def test_landing_on_an_opponent_on_a_white_space_sends_it_to_its_starting_square():
    game = started()
    put(game, "R1", "e5")
    put(game, "B3", "e7")
    game.play((2, 1))
    events = game.play_text("1:2>e7")
    assert events[1] == ("sent_back", 1, 2, game.board.space("e7"), game.board.space("SB3"))
    assert at(game, "B3") == "SB3" and at(game, "R1") == "e7"


def test_an_opponent_resting_on_its_own_colour_is_safe():
    game = started()
    put(game, "R1", "e2")
    put(game, "B1", "f3")  # blue on blue: safe
    put(game, "B2", "c2")  # blue on red: not safe
    game.play((2, 4))
    assert "1:2>f3" not in legal(game) and "1:2>c2" in legal(game)
    events = game.play_text("1:2>c2")
    assert ("sent_back", 1, 1, game.board.space("c2"), game.board.space("SB2")) in events


def test_no_piece_lands_on_its_own_side():
    game = started()
    put(game, "R1", "e5")
    put(game, "R2", "e6")
    game.play((1, 2))
    assert "1:1>e6" not in legal(game) and "1:2>e7" in legal(game)  # passing its own piece is fine


def test_passing_pieces_sends_nothing_back():
    game = started()
    put(game, "R1", "e5")
    put(game, "B1", "e6")
    put(game, "B2", "e7")
    game.play((3, 1))
    events = game.play_text("1:3>e8")
    assert names(events) == ["moved"] and at(game, "B1") == "e6" and at(game, "B2") == "e7"


def test_a_safe_opponent_can_block_every_move_and_the_turn_is_lost():
    game = started(colours="RY")
    home(game, "R2", "R3", "R4")
    put(game, "R1", "l10")  # a 3 from l10 only reaches i10
    put(game, "Y1", "i10")
    events = game.play((3, 3))
    assert names(events) == ["rolled", "lost_turn", "turn"]


# -- the SNIGGLE Zone -----------------------------------------------------------------------


def test_the_zone_is_entered_only_over_the_trademark_which_counts_as_two():
    game = started()
    put(game, "R1", "f10")
    game.play((1, 2))
    assert [t for t in legal(game) if t.startswith("1:1")] == ["1:1>e10", "1:1>g10"]  # no TM for a 1
    assert "1:2>TM" in legal(game)
    game = started()
    put(game, "R1", "f10")
    game.play((3, 5))
    assert {"1:3>Z1", "1:3>Z28", "1:3>TM"} <= set(legal(game))  # TM by g10, or TM + 1 onto a path
    game = started()
    put(game, "R1", "a10")  # no way forward from the rest of the top row
    game.play((1, 2))
    assert [t for t in legal(game) if t[0] == "1"] == ["1:1>b10", "1:2>c10"]


def test_from_the_trademark_either_path_may_be_taken():
    game = started()
    put(game, "R1", "TM")
    game.play((1, 6))
    assert sorted(t for t in legal(game) if t.startswith("1:1")) == ["1:1>Z1", "1:1>Z28"]
    game.play_text("1:1>Z28")
    assert game.lane[0] == 1


def test_a_piece_on_a_path_keeps_its_direction():
    # Z2 lies on both paths: a red piece came along the left one, a yellow one along the right
    for first, name, lane, ahead in ((1, "R1", 0, "Z3"), (2, "Y1", 1, "Z1")):
        game = started(first=first, colours="RY")
        put(game, name, "Z2", lane)
        game.play((1, 6))
        assert [t for t in legal(game) if t[0] == name[1]] == [name[1] + ":1>" + ahead]


def test_the_matching_square_is_entered_by_exact_count_and_never_passed():
    game = started()
    put(game, "R1", "Z2", 0)  # HR1 is entered from Z4
    game.play((2, 3))
    assert sorted(t for t in legal(game) if t[0] == "1") == ["1:2>Z4", "1:3>HR1"]
    game = started()
    put(game, "R1", "Z2", 0)
    game.play((4, 5))
    assert [t for t in legal(game) if t[0] == "1"] == []  # 4 or 5 would pass HR1


def test_captures_and_passing_apply_in_the_zone():
    game = started()
    put(game, "R1", "TM")
    put(game, "B1", "Z1", 0)
    put(game, "B2", "Z2", 0)
    game.play((2, 5))
    events = game.play_text("1:2>Z2")  # passes B1, lands on B2
    assert ("sent_back", 1, 1, game.board.space("Z2"), game.board.space("SB2")) in events
    assert at(game, "B1") == "Z1" and game.lane[piece(game, "B2")] == -1
    game = started()
    put(game, "R1", "f10")
    put(game, "B1", "TM")  # the trademark is white too
    game.play((2, 5))
    assert ("sent_back", 1, 0, game.board.trademark, game.board.space("SB1")) in game.play_text("1:2>TM")


def test_a_piece_on_its_matching_square_is_home_and_never_moves_again():
    game = started()
    home(game, "R1")
    game.play((1, 2))
    assert not [t for t in legal(game) if t[0] == "1"]


def test_the_first_player_with_all_four_pieces_home_wins():
    game = started()
    home(game, "R2", "R3", "R4")
    put(game, "R1", "Z4", 0)
    game.play((1, 1))
    events = game.play_text("1:1>HR1")
    assert names(events) == ["moved", "home", "won"]  # no throw for the double: the game is over
    assert game.phase == OVER and game.winner == 0 and game.legal() == () and game.chance_outcomes() == ()
    raises(IllegalMove, game.play, (1, 1))


def test_a_piece_home_with_the_first_die_leaves_the_second_to_another_piece():
    game = started()
    home(game, "R3", "R4")
    put(game, "R1", "Z4", 0)
    put(game, "R2", "Z2", 0)
    game.play((1, 1))
    events = game.play_text("1:1>HR1")
    assert game.phase == DECIDE and names(events) == ["moved", "home"]
    game.play_text("2:1>Z3")
    assert game.phase == ROLL and game.turn == 0  # the double


# -- the protocol -------------------------------------------------------------------------


def test_illegal_steps_are_refused_and_change_nothing():
    game = started()
    game.play((3, 5))
    before = game.save()
    raises(IllegalMove, game.play, move(0, 6, 0))
    raises(IllegalMove, game.play_text, "1:3>l10")
    raises(IllegalMove, game.play_text, "hello")
    raises(IllegalMove, game.play_text, "1:3>nowhere")
    raises(IllegalMove, game.play, (3, 5))
    assert game.save() == before
    game = started()
    raises(IllegalMove, game.play, (0, 7))
    raises(IllegalMove, game.play_text, "3")


def test_notation_reads_back_every_step():
    game = started(3)
    put(game, "R1", "f10")
    put(game, "R2", "Z4", 0)
    for outcome, _, _ in game.chance_outcomes():
        assert game.parse(game.notation(outcome)) == outcome
    game.play((3, 1))
    assert game.legal()
    for step in game.legal():
        assert game.parse(game.notation(step)) == step
