"""Mehen, clause by clause, with scripted throws (seed: 002_bc9068ac8e4fc24b.txt).

The board (boards/mehen.md): 36 squares, "1" the tail (outside) to "36" the
head (centre). A piece's progress is 0 on the tail, 35 on the head, 70 home.
"""

from rules.core import DECIDE, OVER, ROLL, IllegalMove, RulesError
from rules.mehen import MARBLES, Mehen, MehenBoard
from support import board_data, names, raises, texts

# throws by the sticks that fell flat (bit 0 = stick 1)
SIX, ONE, TWO, THREE = 0b000, 0b001, 0b011, 0b111
_board = []


def mehen_board():
    if not _board:
        _board.append(MehenBoard(board_data("mehen")))
    return _board[0]


def mehen(players=2, **options):
    return Mehen(mehen_board(), players, options)


def inward(sid):
    """Progress of a piece on square ``sid`` on its way to the head."""
    return mehen_board().space(sid)


def outward(sid):
    """Progress of a piece on square ``sid`` on its way back to the tail."""
    return mehen_board().length - mehen_board().space(sid)


def put(game, player, progresses):
    """Set every marble of a player: a list of three progresses."""
    game.marbles[player * MARBLES:(player + 1) * MARBLES] = progresses


def marbles(game, player):
    return game.marbles[player * MARBLES:(player + 1) * MARBLES]


def ids(game, path):
    return [game.board.ids[s] for s in path]


# -- the sticks ------------------------------------------------------------

def test_three_sticks_give_eight_equally_likely_lies_with_the_seed_values():
    game = mehen()
    outcomes = game.chance_outcomes()
    assert [o for o, _, _ in outcomes] == list(range(8))
    assert all(n == 1 and d == 8 for _, n, d in outcomes)
    chance = {}
    for mask, n, d in outcomes:
        game2 = mehen()
        value = game2.play(mask)[0][3]
        chance[value] = chance.get(value, 0) + n
    # 0 flat = 6, 1 = 1, 2 = 2, 3 = 3: chances 1/8, 3/8, 3/8, 1/8
    assert chance == {6: 1, 1: 3, 2: 3, 3: 1}
    assert game.legal() == ()


def test_a_throw_is_written_as_the_sticks_lie():
    game = mehen()
    assert [game.notation(m) for m in (SIX, ONE, TWO, THREE, 0b100)] == ["RRR", "FRR", "FFR", "FFF", "RRF"]
    assert game.parse("rfr") == 0b010
    raises(IllegalMove, game.parse, "FR")
    raises(IllegalMove, game.parse, "FRX")
    raises(IllegalMove, game.play, 8)


# -- setup and the turn ----------------------------------------------------

def test_every_player_starts_with_three_marbles_on_the_tail():
    game = mehen(4)
    assert game.marbles == [0] * 12 and game.lions == []
    assert game.phase == ROLL and game.turn == 0 and game.winner == -1


def test_a_turn_is_one_throw_then_one_marble_moved_that_many_squares():
    game = mehen()
    events = game.play(TWO)
    assert events == [("threw", 0, TWO, 2)]
    assert game.phase == DECIDE and texts(game, game.legal()) == ["a", "b", "c"]
    events = game.play_text("b")
    assert events[0] == ("moved", 0, 1, (0, 1, 2))
    assert marbles(game, 0) == [0, inward("3"), 0]
    assert events[-1] == ("turn", 1) and game.phase == ROLL and game.turn == 1


def test_a_six_moves_six_squares():
    game = mehen()
    game.play(SIX)
    game.play_text("a")
    assert marbles(game, 0) == [inward("7"), 0, 0]


def test_players_take_turns_in_order_from_the_first_player():
    game = mehen(3, first_player=2)
    order = []
    for _ in range(4):
        order.append(game.turn)
        game.play(ONE)
        game.play_text("a")
    assert order == [1, 2, 0, 1]


def test_marbles_of_different_players_share_a_square():
    game = mehen()
    put(game, 0, [inward("5"), 0, 0])
    put(game, 1, [inward("3"), 0, 0])
    game.turn = 1
    game.play(TWO)
    events = game.play_text("a")
    assert names(events) == ["moved", "turn"]
    assert marbles(game, 0)[0] == marbles(game, 1)[0] == inward("5")


def test_marbles_of_one_player_share_a_square_too():
    game = mehen()
    put(game, 0, [inward("5"), inward("3"), 0])
    game.play(TWO)
    game.play_text("b")
    assert marbles(game, 0)[:2] == [inward("5"), inward("5")]


# -- the route: in to the head, round, out to the tail ---------------------

def test_a_marble_landing_on_the_head_turns_round():
    game = mehen()
    put(game, 0, [inward("34"), 0, 0])
    game.play(TWO)
    events = game.play_text("a")
    assert ("head", 0, 0) in events and marbles(game, 0)[0] == game.board.head
    game.play(ONE)
    game.play_text("a")  # player 2
    game.play(THREE)
    events = game.play_text("a")
    assert ids(game, events[0][3]) == ["36", "35", "34", "33"]
    assert marbles(game, 0)[0] == outward("33")


def test_overshooting_the_head_carries_on_outwards():
    game = mehen()
    put(game, 0, [inward("34"), 0, 0])
    game.play(SIX)
    events = game.play_text("a")
    assert ids(game, events[0][3]) == ["34", "35", "36", "35", "34", "33", "32"]
    assert ("head", 0, 0) in events
    assert marbles(game, 0)[0] == outward("32")


def test_with_exact_head_a_throw_past_the_head_cannot_move_that_marble():
    game = mehen(exact_head=True)
    put(game, 0, [inward("34"), 0, 0])
    game.play(SIX)
    assert texts(game, game.legal()) == ["b", "c"]
    before = game.save()
    raises(IllegalMove, game.play_text, "a")
    assert game.save() == before
    game.play_text("b")
    game.play(ONE)
    game.play_text("a")
    game.play(TWO)
    assert "a" in texts(game, game.legal())
    game.play_text("a")
    assert marbles(game, 0)[0] == game.board.head


def test_the_return_trip_runs_outwards_over_the_same_squares():
    game = mehen()
    put(game, 0, [outward("30"), 0, 0])
    game.play(THREE)
    events = game.play_text("a")
    assert ids(game, events[0][3]) == ["30", "29", "28", "27"]
    assert "head" not in names(events)


def test_a_marble_back_at_the_tail_after_the_head_is_home_and_leaves_play():
    game = mehen()
    put(game, 0, [outward("3"), 0, 0])
    game.play(SIX)  # two squares to the tail; the rest is dropped
    events = game.play_text("a")
    assert ids(game, events[0][3]) == ["3", "2", "1"]
    assert ("home", 0, 0) in events
    assert marbles(game, 0)[0] == game.board.length and game.home(0) == 1
    game.play(ONE)
    game.play_text("a")
    game.play(ONE)
    assert texts(game, game.legal()) == ["b", "c"]  # a home marble never moves again


def test_with_exact_home_only_the_exact_throw_brings_a_marble_home():
    game = mehen(exact_home=True)
    put(game, 0, [outward("3"), 0, 0])
    game.play(THREE)
    assert texts(game, game.legal()) == ["b", "c"]
    game.play_text("b")
    game.play(ONE)
    game.play_text("a")
    game.play(TWO)
    assert ("home", 0, 0) in game.play_text("a")


def test_no_possible_move_loses_the_throw():
    game = mehen(exact_home=True)
    end = game.board.length
    put(game, 0, [end - 1, end, end])
    events = game.play(TWO)
    assert names(events) == ["threw", "no_move", "turn"]
    assert game.turn == 1 and game.phase == ROLL


def test_the_first_player_with_every_marble_home_wins():
    game = mehen(3)
    end = game.board.length
    put(game, 0, [end, end, outward("2")])
    put(game, 1, [end, end, outward("5")])
    events = game.play(ONE)
    events = game.play_text("c")
    assert names(events) == ["moved", "home", "won"]
    assert game.phase == OVER and game.winner == 0 and game.over()
    assert game.legal() == () and game.chance_outcomes() == ()
    raises(IllegalMove, game.play, ONE)


def test_two_marbles_home_is_not_yet_a_win():
    game = mehen()
    end = game.board.length
    put(game, 0, [end, outward("2"), outward("20")])
    game.play(ONE)
    events = game.play_text("b")
    assert names(events) == ["moved", "home", "turn"] and game.winner == -1


# -- extra throws (an option) ----------------------------------------------

def test_no_throw_gives_another_by_default():
    game = mehen()
    game.play(SIX)
    assert game.play_text("a")[-1] == ("turn", 1)


def test_the_extra_throw_option_gives_the_same_player_another_throw():
    game = mehen(extra_throw=6)
    game.play(SIX)
    events = game.play_text("a")
    assert events[-1] == ("extra_throw", 0) and game.turn == 0 and game.phase == ROLL
    game.play(TWO)
    assert game.play_text("a")[-1] == ("turn", 1)


def test_an_extra_throw_is_earned_even_when_the_throw_cannot_be_moved():
    game = mehen(exact_home=True, extra_throw=6)
    end = game.board.length
    put(game, 0, [end - 1, end, end])
    assert names(game.play(SIX)) == ["threw", "no_move", "extra_throw"]
    assert game.turn == 0


# -- the hunt: shared lions ------------------------------------------------

def test_the_classic_race_has_no_lions():
    game = mehen()
    game.play(TWO)
    assert texts(game, game.legal()) == ["a", "b", "c"]
    raises(IllegalMove, game.play_text, "L1")


def test_in_the_hunt_any_player_may_move_a_shared_lion_instead_of_a_marble():
    game = mehen(3, hunt=True)
    assert game.lions == [0, 0, 0]
    for player in range(3):
        game.play(TWO)
        assert texts(game, game.legal()) == ["L1", "L2", "L3", "a", "b", "c"]
        events = game.play_text("L%d" % (player + 1))
        assert events[0] == ("lion", player, player, (0, 1, 2))
    assert game.lions == [2, 2, 2] and game.marbles == [0] * 9


def test_the_number_and_start_of_the_lions_are_options():
    game = mehen(hunt=True, lions=1, lion_start="head")
    assert game.lions == [game.board.head]
    game.play(TWO)
    events = game.play_text("L1")
    assert ids(game, events[0][3]) == ["36", "35", "34"]  # from the head it goes outwards


def test_a_lion_eats_every_opponents_marble_on_its_square_but_never_the_movers():
    game = mehen(3, hunt=True)
    game.lions[0] = inward("7")
    put(game, 0, [inward("10"), 0, 0])  # the mover's own
    put(game, 1, [inward("10"), outward("10"), inward("9")])  # two here, one a square short
    put(game, 2, [outward("10"), 0, 0])
    game.play(THREE)
    events = game.play_text("L1")
    ten = game.board.space("10")
    assert events[1:4] == [("eaten", 1, 0, ten), ("eaten", 1, 1, ten), ("eaten", 2, 0, ten)]
    assert marbles(game, 0) == [inward("10"), 0, 0]
    assert marbles(game, 1) == [0, 0, inward("9")]
    assert marbles(game, 2) == [0, 0, 0]
    assert game.lions[0] == inward("10") and events[-1] == ("turn", 1)


def test_an_eaten_marble_must_visit_the_head_again():
    game = mehen(hunt=True)
    game.lions[0] = outward("12")
    put(game, 1, [outward("10"), 0, 0])  # it had visited the head
    game.play(TWO)
    game.play_text("L1")
    assert marbles(game, 1)[0] == 0
    game.play(THREE)
    game.play_text("a")
    assert marbles(game, 1)[0] == inward("4")  # on the way in again, not home


def test_a_lion_passing_over_marbles_eats_nothing():
    game = mehen(hunt=True)
    game.lions[0] = inward("7")
    put(game, 1, [inward("8"), inward("9"), 0])
    game.play(THREE)
    assert names(game.play_text("L1")) == ["lion", "turn"]
    assert marbles(game, 1) == [inward("8"), inward("9"), 0]


def test_a_marble_moving_onto_a_lion_is_not_eaten():
    game = mehen(hunt=True)
    game.lions[0] = inward("4")
    game.play(THREE)
    assert names(game.play_text("a")) == ["moved", "turn"]
    assert marbles(game, 0)[0] == inward("4")


def test_a_lion_follows_the_route_round_the_head_and_eats_where_it_lands():
    game = mehen(hunt=True)
    game.lions[1] = inward("34")
    put(game, 1, [outward("32"), 0, 0])
    game.play(SIX)
    events = game.play_text("L2")
    assert ids(game, events[0][3]) == ["34", "35", "36", "35", "34", "33", "32"]
    assert ("lion_head", 1) in events and ("eaten", 1, 0, game.board.space("32")) in events


def test_a_lion_back_at_the_tail_leaves_play_like_a_marble():
    game = mehen(hunt=True)
    game.lions[2] = outward("2")
    game.play(THREE)
    events = game.play_text("L3")
    assert names(events) == ["lion", "lion_home", "turn"]
    assert game.lions[2] == game.board.length
    game.play(ONE)
    assert "L3" not in texts(game, game.legal())


def test_with_lions_return_a_lion_back_at_the_tail_sets_out_again():
    game = mehen(hunt=True, lions_return=True)
    game.lions[2] = outward("2")
    game.play(THREE)
    game.play_text("L3")
    assert game.lions[2] == 0
    game.play(ONE)
    assert game.play_text("L3")[0] == ("lion", 1, 2, (0, 1))


def test_lions_obey_the_exact_throw_options_too():
    game = mehen(hunt=True, exact_head=True)
    game.lions[0] = inward("34")
    game.play(THREE)
    assert texts(game, game.legal()) == ["L2", "L3", "a", "b", "c"]


def test_a_lion_may_land_on_the_movers_own_marbles_and_leaves_them():
    game = mehen(hunt=True)
    put(game, 0, [inward("3"), inward("3"), 0])
    game.play(TWO)
    assert names(game.play_text("L1")) == ["lion", "turn"]
    assert marbles(game, 0) == [inward("3"), inward("3"), 0]


# -- players and options ---------------------------------------------------

def test_two_to_six_players_as_the_board_allows():
    assert mehen(6).players == 6
    assert "2 to 6" in str(raises(RulesError, mehen, 1))
    raises(RulesError, mehen, 7)
    data = board_data("mehen")
    data["max_players"] = 4
    message = str(raises(RulesError, Mehen, data, 5))
    assert "2 to 4" in message
    assert Mehen(data, 4).players == 4


def test_bad_options_are_refused_by_name():
    assert "colour" in str(raises(RulesError, mehen, colour=1))
    assert "'lions'" in str(raises(RulesError, mehen, hunt=True, lions=0))
    raises(RulesError, mehen, lions=7)
    assert "lion_start" in str(raises(RulesError, mehen, lion_start="middle"))
    assert "extra_throw" in str(raises(RulesError, mehen, extra_throw=4))
    assert "first_player" in str(raises(RulesError, mehen, first_player=3))
    assert "'hunt'" in str(raises(RulesError, mehen, hunt="yes"))


def test_an_illegal_step_changes_nothing():
    game = mehen(hunt=True, lions=2)
    before = game.save()
    raises(IllegalMove, game.play_text, "a")  # a move before the throw
    assert game.save() == before
    game.play(TWO)
    before = game.save()
    for text in ("d", "L3", "L0", "x", "FRF"):
        raises(IllegalMove, game.play_text, text)
    raises(IllegalMove, game.play, ("m", 5))
    raises(IllegalMove, game.play, TWO)
    assert game.save() == before
