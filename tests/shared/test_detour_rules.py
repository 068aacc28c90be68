"""Detour, clause by clause, with scripted rolls (seed: 003_4dc255dca0892c86.txt).

Board landmarks used here (see boards/detour.md): STARTs d1 (arrow E) and a4
(arrow N); FINISH j13 and m10; path stars a1 c3 k3 c11 k11 m13; wheels 1-4
with stars g11, k7, g3, c7; the centre star g7.
"""

from rules.core import DECIDE, OVER, POPOFF, ROLL, WHEEL, IllegalMove, RulesError
from rules.detour import FINISHED, UNPLACED
from support import detour, names, put, raises, texts, where


def setup(players=2, **options):
    """A game whose pieces all stand on the board: every piece on a START."""
    game = detour(players, **options)
    for p in range(len(game.pos)):
        game.pos[p] = game.board.starts[p & 1]
        game.head[p] = game.board.arrows[p & 1]
    return game


def test_first_turn_places_both_pieces_on_the_starts_facing_their_arrows():
    game = detour()
    assert game.pos == [UNPLACED] * 4
    events = game.play((4, 2))
    assert names(events) == ["placed", "placed", "rolled"]
    assert where(game, 0, 0) == ("d1", "E") and where(game, 0, 1) == ("a4", "N")
    assert game.pos[2] == UNPLACED  # player 2 places on their own first turn


def test_two_dice_move_two_different_pieces():
    game = detour()
    game.play((3, 5))
    assert texts(game, game.legal()) == ["a3", "a5", "b3", "b5"]
    game.play_text("a3")
    assert texts(game, game.legal()) == ["b5"]
    game.play_text("b5")
    assert game.phase == ROLL and game.turn == 1


def test_doubles_list_each_piece_once_and_still_move_both():
    game = detour()
    game.play((2, 2))
    assert texts(game, game.legal()) == ["a2", "b2"]
    game.play_text("b2")
    assert texts(game, game.legal()) == ["a2"]


def test_a_roll_is_two_dice_with_exact_probabilities():
    game = detour()
    outcomes = game.chance_outcomes()
    assert len(outcomes) == 36
    assert all(n == 1 and d == 36 for _, n, d in outcomes)
    assert game.legal() == ()


def test_one_die_when_only_one_piece_is_left():
    game = setup()
    game.pos[0] = FINISHED
    outcomes = game.chance_outcomes()
    assert [o for o, _, _ in outcomes] == [(1,), (2,), (3,), (4,), (5,), (6,)]
    assert all(n == 1 and d == 6 for _, n, d in outcomes)
    raises(IllegalMove, game.play, (3, 4))
    game.play((4,))
    assert texts(game, game.legal()) == ["b4"]


def test_pieces_keep_their_heading_and_follow_the_path():
    game = setup()
    game.play((4, 3))
    game.play_text("a4")  # d1 E: e1 f1 g1, bends north into wheel 3's arm g2, then west
    assert where(game, 0, 0) == ("g2", "W")
    game.play_text("b3")  # a4 N: a5 a6 a7, the corner sends it east
    assert where(game, 0, 1) == ("a7", "E")


def test_every_die_is_moved_in_full_passing_other_pieces():
    game = setup()
    put(game, 1, 0, "e1", "W")
    put(game, 1, 1, "f1", "W")
    game.play((4, 1))
    game.play_text("a4")  # passes both opposing pieces without a pop-off
    assert where(game, 0, 0) == ("g2", "W")
    assert game.phase == DECIDE


def test_a_star_by_exact_count_earns_one_wheel_turn_before_the_second_piece():
    game = setup()
    put(game, 0, 0, "c5", "S")
    game.play((2, 6))
    events = game.play_text("a2")
    assert "star" in names(events) and game.phase == WHEEL
    assert texts(game, game.legal()) == ["W1+", "W1-", "W2+", "W2-", "W3+", "W3-", "W4+", "W4-"]
    raises(IllegalMove, game.play_text, "b6")  # the wheel comes first
    events = game.play_text("W3+")
    assert events[0] == ("wheel", 2, 1, 1)
    assert game.phase == DECIDE and texts(game, game.legal()) == ["b6"]


def test_passing_a_star_earns_nothing():
    game = setup()
    put(game, 0, 0, "c5", "S")
    game.play((3, 6))
    game.play_text("a3")  # over c3 to d3
    assert where(game, 0, 0) == ("d3", "E") and game.phase == DECIDE


def test_a_turned_wheel_changes_where_the_path_leads():
    game = setup()
    put(game, 0, 0, "g1", "N")
    game.play((2, 6))
    game.play_text("a2")  # wheel 3 at its start: g2 then the corner f2
    assert where(game, 0, 0) == ("f2", "N")
    other = setup()
    other.wheels[2] = 1  # a quarter turn: the star route now joins g2 and h3
    put(other, 0, 0, "g1", "N")
    other.play((2, 6))
    other.play_text("a2")
    assert where(other, 0, 0) == ("g3", "E")


def test_a_piece_on_a_wheel_star_turns_with_the_wheel():
    game = setup()
    put(game, 1, 0, "g3", "E")  # in the holder, heading out to h3
    put(game, 0, 0, "c5", "S")
    game.play((2, 6))
    game.play_text("a2")
    events = game.play_text("W3+")
    assert where(game, 1, 0) == ("g3", "S")
    other = setup()
    put(other, 1, 0, "g4", "S")  # on wheel 3's north arm, heading in
    put(other, 0, 0, "c5", "S")
    other.play((2, 6))
    other.play_text("a2")
    events = other.play_text("W3-")
    assert where(other, 1, 0) == ("f3", "E")
    assert ("turned", 1, 0, other.board.space("g4"), other.board.space("f3")) in events


def test_the_centre_star_lets_the_piece_leave_any_way_next_turn():
    game = setup()
    put(game, 0, 0, "g9", "S")
    game.play((2, 1))
    events = game.play_text("a2")
    assert where(game, 0, 0)[0] == "g7" and "star" in names(events)
    game.play_text("W1+")
    game.play_text("b1")
    game.play((3, 4))  # player 2
    game.play_text("a3")
    game.play_text("b4")
    game.play((1, 5))  # player 1 again: the centre piece picks its heading
    legal = texts(game, game.legal())
    assert [t for t in legal if t.startswith("a")] == ["a1E", "a1N", "a1S", "a1W", "a5E", "a5N", "a5S", "a5W"]
    game.play_text("a1W")
    assert where(game, 0, 0) == ("f7", "W")


def test_passing_through_the_centre_star_keeps_the_direction():
    game = setup()
    put(game, 0, 0, "g9", "S")
    game.play((3, 1))
    game.play_text("a3")
    assert where(game, 0, 0) == ("g6", "S") and game.phase == DECIDE


def test_landing_on_your_own_piece_sends_both_to_start_and_ends_the_turn():
    game = setup()
    put(game, 0, 0, "c5", "S")
    put(game, 0, 1, "c3", "E")  # even on a star
    game.play((2, 6))
    events = game.play_text("a2")
    assert names(events) == ["moved", "collided", "sent_back", "sent_back", "turn"]
    assert where(game, 0, 0) == ("d1", "E") and where(game, 0, 1) == ("a4", "N")
    assert game.turn == 1 and game.phase == ROLL


def test_landing_on_an_opponent_starts_a_pop_off_the_loser_picks_a_start():
    game = setup()
    put(game, 0, 0, "c5", "S")
    put(game, 1, 0, "c4", "S")
    game.play((1, 6))
    events = game.play_text("a1")
    assert names(events) == ["moved", "popoff"] and game.phase == POPOFF
    assert sorted(game.chance_outcomes()) == [(0, 1, 2), (1, 1, 2)]
    game.play_text("P1")  # player 1 pops the 6 first
    assert game.phase == DECIDE and game.actor == 1
    assert texts(game, game.legal()) == ["S1", "S2"]
    events = game.play_text("S2")
    assert where(game, 1, 0) == ("a4", "N") and where(game, 0, 0) == ("c4", "S")
    assert game.actor == 0 and texts(game, game.legal()) == ["b6"]


def test_the_mover_can_lose_the_pop_off():
    game = setup()
    put(game, 0, 0, "c5", "S")
    put(game, 1, 0, "c4", "S")
    game.play((1, 6))
    game.play_text("a1")
    game.play_text("P2")
    assert game.actor == 0
    game.play_text("S1")
    assert where(game, 0, 0) == ("d1", "E") and where(game, 1, 0) == ("c4", "S")
    assert texts(game, game.legal()) == ["b6"]


def test_sending_a_piece_back_from_a_star_still_earns_the_wheel_turn():
    game = setup()
    put(game, 0, 0, "c5", "S")
    put(game, 1, 0, "c3", "E")
    game.play((2, 6))
    game.play_text("a2")
    game.play_text("P1")
    game.play_text("S1")
    assert game.phase == WHEEL and game.actor == 0


def test_losing_the_pop_off_on_a_star_loses_the_wheel_turn_unless_the_option_says_otherwise():
    for keep in (False, True):
        game = setup(star_after_lost_popoff=keep)
        put(game, 0, 0, "c5", "S")
        put(game, 1, 0, "c3", "E")
        game.play((2, 6))
        game.play_text("a2")
        game.play_text("P2")
        game.play_text("S2")
        assert game.phase == (WHEEL if keep else DECIDE)


def test_only_start_spaces_hold_more_than_one_piece():
    game = setup()
    put(game, 0, 0, "b1", "E")  # two steps from START d1, where the others stand
    game.play((2, 6))
    events = game.play_text("a2")
    assert "popoff" not in names(events) and "collided" not in names(events)
    assert where(game, 0, 0) == ("d1", "E")


def test_finish_by_exact_count_removes_the_piece():
    game = setup()
    put(game, 0, 0, "m12", "S")
    game.play((2, 6))
    events = game.play_text("a2")
    assert "finished" in names(events) and game.pos[0] == FINISHED


def test_without_the_exact_count_the_piece_moves_on_past_finish():
    game = setup()
    put(game, 0, 0, "m12", "S")
    game.play((3, 6))
    game.play_text("a3")
    assert where(game, 0, 0) == ("m9", "S")


def test_the_second_piece_to_finish_wins():
    game = setup(3)
    game.pos[1] = FINISHED
    put(game, 0, 0, "m12", "S")
    game.play((2,))
    events = game.play_text("a2")
    assert names(events)[-2:] == ["finished", "won"]
    assert game.phase == OVER and game.winner == 0 and game.legal() == ()
    raises(IllegalMove, game.play, (1, 1))


def test_play_passes_to_the_left_from_the_chosen_first_player():
    game = setup(3, first_player=2)
    order = []
    for _ in range(4):
        order.append(game.turn)
        game.play((1, 2))
        while game.phase != ROLL:
            game.play(game.chance_outcomes()[0][0] if game.is_chance() else game.legal()[0])
    assert order == [1, 2, 0, 1]


def test_two_players_may_play_with_four_pieces_each():
    game = detour(2, pieces=4)
    events = game.play((1, 2))
    assert names(events).count("placed") == 4
    assert [where(game, 0, i)[0] for i in range(4)] == ["d1", "a4", "d1", "a4"]
    assert texts(game, game.legal()) == ["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2"]
    game.play_text("c2")
    assert "c1" not in texts(game, game.legal())
    assert "pieces" in str(raises(RulesError, detour, 3, pieces=4))


def test_bad_players_and_options_are_refused_with_a_reason():
    assert "2 to 4" in str(raises(RulesError, detour, 5))
    assert "colour" in str(raises(RulesError, detour, 2, colour=1))
    assert "first_player" in str(raises(RulesError, detour, 2, first_player=3))
    assert "half_turns" in str(raises(RulesError, detour, 2, half_turns=1))


def test_options_allow_half_turns_and_passing_on_a_wheel_turn():
    game = setup(half_turns=True, wheel_turn_optional=True)
    put(game, 0, 0, "c5", "S")
    game.play((2, 6))
    game.play_text("a2")
    legal = texts(game, game.legal())
    assert "W2+2" in legal and "pass" in legal and len(legal) == 13
    game.play_text("pass")
    assert list(game.wheels) == [0, 0, 0, 0] and game.phase == DECIDE


def test_illegal_steps_are_refused_and_change_nothing():
    game = setup()
    game.play((3, 5))
    before = game.save()
    raises(IllegalMove, game.play, ("m", 0, 6, -1))
    raises(IllegalMove, game.play_text, "a4")
    raises(IllegalMove, game.play_text, "hello")
    raises(IllegalMove, game.play_text, "W1+")
    assert game.save() == before


def test_notation_reads_back_every_legal_step():
    game = setup(half_turns=True, wheel_turn_optional=True)
    put(game, 0, 0, "c5", "S")
    put(game, 1, 1, "c3", "E")
    put(game, 0, 1, "g7", "N")
    for outcome, _, _ in game.chance_outcomes():
        assert game.parse(game.notation(outcome)) == outcome
    game.play((2, 6))
    for step in game.legal():
        assert game.parse(game.notation(step)) == step
    game.play_text("a2")
    for outcome, _, _ in game.chance_outcomes():
        assert game.parse(game.notation(outcome)) == outcome
    game.play_text("P1")
    for phase_steps in (game.legal(),):
        for step in phase_steps:
            assert game.parse(game.notation(step)) == step
    game.play_text("S1")
    for step in game.legal():
        assert game.parse(game.notation(step)) == step
