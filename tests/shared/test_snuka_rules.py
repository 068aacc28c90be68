"""Tiddlee Snuka, clause by clause, with scripted shots (seed: 001_cb03f1ed99bf16a0.txt).

Counters R Y G M B P K are worth 1 to 7; see boards/snuka.md for the steps.
"""

from rules.core import DECIDE, OVER, IllegalMove, RulesError
from rules.games import GAMES, find_game, new_game
from rules.snuka import BLACK, BLUE, DOWN, GREEN, MAUVE, OUT, PINK, RED, UP, YELLOW, Snuka, SnukaBoard
from support import board_data, names, raises

COLOURS = (YELLOW, GREEN, MAUVE, BLUE, PINK, BLACK)
_boards = {}


def snuka_board():
    if "snuka" not in _boards:
        _boards["snuka"] = SnukaBoard(board_data("snuka"))
    return _boards["snuka"]


def snuka(players=2, **options):
    return Snuka(snuka_board(), players, options)


def play(game, *texts):
    """Play steps in notation; return all their events."""
    events = []
    for text in texts:
        events += game.play_text(text)
    return events


def legal(game):
    return sorted(game.notation(s) for s in game.legal())


def reds_gone(players=2, **options):
    """A frame whose reds are all down: the rotation starts on yellow."""
    game = snuka(players, **options)
    game.reds = 0
    game.on = YELLOW
    return game


def black_only(players=2, **options):
    """A frame with only the black left on the cloth."""
    game = reds_gone(players, **options)
    for c in range(YELLOW, BLACK):
        game.colours[c] = DOWN
    game.on = BLACK
    return game


def events_of(events, kind):
    return [e for e in events if e[0] == kind]


def test_a_frame_starts_on_a_red_with_every_counter_in_play():
    game = snuka(3)
    assert game.phase == DECIDE and game.turn == 0 and game.actor == 0
    assert game.reds == 15 and all(game.colours[c] == UP for c in COLOURS)
    assert game.on_now() == (RED,) and game.scores == [0, 0, 0]
    assert legal(game)[:3] == ["B", "B!off", "B!onto"]
    assert "R" in legal(game) and "miss" in legal(game) and "safe" in legal(game)
    assert not [t for t in legal(game) if t[0] in "+=@"]  # nothing to add, choose or confirm yet
    assert game.chance_outcomes() == () and not game.is_chance()
    assert snuka(3, first_player=2).turn == 1


def test_potting_a_red_scores_one_and_then_any_colour_is_on():
    game = snuka()
    events = game.play_text("R")
    assert events[:2] == [("potted", 0, RED, 1), ("score", 0, 1)]
    assert events[-1] == ("on", COLOURS) and game.on_now() == COLOURS
    assert game.turn == 0 and game.reds == 14
    assert "turn" not in names(events)


def test_red_and_colour_alternate_until_a_shot_fails():
    game = snuka()
    play(game, "R", "B", "@B", "R", "K", "@K", "R")
    assert game.scores == [1 + 5 + 1 + 7 + 1, 0] and game.turn == 0
    events = game.play_text("miss")
    assert events == [("missed", 0), ("turn", 1), ("on", (RED,))]
    assert game.turn == 1 and game.actor == 1


def test_a_colour_potted_while_reds_remain_goes_back_to_its_spot():
    game = snuka()
    game.play_text("R")
    events = game.play_text("M")
    assert ("potted", 0, MAUVE, 4) in events and ("score", 0, 5) in events
    assert ("respot", MAUVE, (snuka_board().space("mauve"),)) in events
    # the board waits until the mauve is back; the next shot is refused till then
    assert [t for t in legal(game) if t[0] != "+"] == ["@M"]
    before = game.save()
    raises(IllegalMove, game.play_text, "R")
    assert game.save() == before
    assert play(game, "@M") == [("respotted", MAUVE), ("on", (RED,))]
    assert game.colours[MAUVE] == UP and "M" in legal(game)


def test_without_confirm_respot_the_board_only_shows_the_spot():
    game = snuka(confirm_respot=False)
    events = play(game, "R", "G")
    assert ("respot", GREEN, (snuka_board().space("green"),)) in events
    assert game.pending == [] and "R" in legal(game) and "G" in legal(game)
    assert not [t for t in legal(game) if t[0] == "@"]


def test_potted_reds_stay_down():
    game = snuka()
    play(game, "R", "Y", "@Y", "R", "miss")
    assert game.reds == 13
    play(game, "R", "miss", "R!off", "@R")
    assert game.reds == 12  # the foul put its red back


def test_a_red_is_not_on_after_a_red_it_stays_down_and_the_turn_ends():
    game = snuka()
    game.play_text("R")
    events = game.play_text("R")
    assert events[0] == ("potted", 0, RED, 0) and "score" not in names(events)
    assert game.scores == [1, 0] and game.reds == 13 and game.turn == 1
    assert "respot" not in names(events)


def test_a_colour_is_not_on_when_a_red_is_it_goes_back_and_the_turn_ends():
    game = snuka()
    events = game.play_text("Y")
    assert events[0] == ("potted", 0, YELLOW, 0)
    assert names(events) == ["potted", "respot", "turn", "on"]
    assert game.scores == [0, 0] and game.turn == 1 and game.pending == [YELLOW]


def test_option_wrong_pot_penalty_deducts_the_counter_potted_out_of_turn():
    game = snuka(wrong_pot_penalty=True)
    events = game.play_text("P")
    assert ("penalty", 0, PINK, 6) in events and game.scores == [-6, 0] and game.turn == 1


def test_option_nominate_the_colour_is_chosen_before_it_is_played():
    game = snuka(nominate=True)
    game.play_text("R")
    assert [t for t in legal(game) if t[0] != "+"] == ["=B", "=G", "=K", "=M", "=P", "=Y"]
    events = game.play_text("=G")
    assert events == [("nominated", 0, GREEN), ("on", (GREEN,))]
    other = game.copy()
    events = other.play_text("B")  # not the colour chosen: no score, back it goes, turn over
    assert events[0] == ("potted", 0, BLUE, 0) and other.turn == 1 and other.scores == [1, 0]
    play(game, "G", "@G")
    assert game.scores == [4, 0] and game.on_now() == (RED,) and game.turn == 0


def test_after_the_last_red_a_colour_is_still_on_and_goes_back_then_the_rotation():
    game = snuka()
    game.reds = 1
    game.play_text("R")
    assert game.reds == 0 and game.on_now() == COLOURS
    events = game.play_text("K")
    assert ("respot", BLACK, (snuka_board().space("black"),)) in events
    game.play_text("@K")
    assert game.on_now() == (YELLOW,) and game.colours[BLACK] == UP
    events = game.play_text("Y")
    assert "respot" not in names(events) and game.colours[YELLOW] == DOWN
    assert game.scores == [1 + 7 + 2, 0] and game.on_now() == (GREEN,)


def test_option_colour_after_last_red_off_starts_the_rotation_at_once():
    game = snuka(colour_after_last_red=False)
    game.reds = 1
    game.play_text("R")
    assert game.on_now() == (YELLOW,) and game.turn == 0
    game.play_text("K")  # not on: back to its spot, turn over
    assert game.scores == [1, 0] and game.turn == 1 and game.on_now() == (YELLOW,)


def test_when_the_colour_after_the_last_red_fails_the_next_player_starts_the_rotation():
    game = snuka()
    game.reds = 1
    play(game, "R", "safe")
    assert game.turn == 1 and game.on_now() == (YELLOW,)


def test_the_colours_go_down_in_strict_rotation_and_stay_down():
    game = reds_gone()
    order = []
    for letter in "YGMBP":
        events = game.play_text(letter)
        assert "respot" not in names(events)
        order.append(game.on_now())
    assert order == [(GREEN,), (MAUVE,), (BLUE,), (PINK,), (BLACK,)]
    assert [game.colours[c] for c in COLOURS] == [DOWN] * 5 + [UP]
    events = game.play_text("K")
    assert game.phase == OVER and game.scores == [27, 0] and game.winner == 0 and game.winners == (0,)
    assert events[-1] == ("won", 0) and "on" not in names(events)
    assert game.legal() == () and "over" in str(raises(IllegalMove, game.play_text, "miss"))


def test_a_colour_potted_out_of_rotation_goes_back_and_ends_the_turn():
    game = reds_gone()
    events = game.play_text("G")
    assert events[0] == ("potted", 0, GREEN, 0) and ("respot", GREEN, (snuka_board().space("green"),)) in events
    assert game.colours[GREEN] == UP and game.turn == 1 and game.on_now() == (YELLOW,)
    assert "Y" not in legal(game)  # the green must go back first
    game.play_text("@G")
    assert "Y" in legal(game)


def test_rotation_colours_already_down_cannot_be_potted_or_fouled():
    game = reds_gone()
    play(game, "Y", "G")
    for text in ("Y", "G!off", "+Y", "R", "R!onto"):
        raises(IllegalMove, game.play_text, text)


def test_each_foul_returns_the_offending_counter_and_deducts_its_value():
    for kind in ("off", "onto", "stuck"):
        game = snuka()
        events = game.play_text("M!" + kind)
        assert events[:3] == [("foul", 0, MAUVE, kind), ("penalty", 0, MAUVE, 4), ("score", 0, -4)]
        assert ("respot", MAUVE, (snuka_board().space("mauve"),)) in events
        assert game.turn == 1 and game.colours[MAUVE] == UP and game.pending == [MAUVE]


def test_a_red_foul_puts_the_red_back_on_a_free_red_spot():
    game = snuka()
    events = game.play_text("R!onto")
    assert ("respot", RED, snuka_board().spots[RED]) in events and len(snuka_board().spots[RED]) == 15
    assert game.scores == [-1, 0] and game.reds == 15
    assert [t for t in legal(game) if t[0] != "+"] == ["@R"]


def test_the_foul_deducts_the_offending_counter_not_the_one_on():
    game = snuka()
    game.play_text("R")  # every colour on; the shooter flips the black off
    game.play_text("K!off")
    assert game.scores == [1 - 7, 0] and game.turn == 1


def test_a_foul_with_the_black_while_other_counters_remain_returns_it():
    game = reds_gone()
    game.play_text("K!stuck")
    assert game.scores == [-7, 0] and game.colours[BLACK] == UP and game.phase == DECIDE


def test_with_only_the_black_left_a_foul_ends_the_frame_and_costs_seven():
    for kind in ("off", "onto", "stuck"):
        game = black_only(3)
        game.scores = [10, 12, 4]
        events = game.play_text("K!" + kind)
        assert "respot" not in names(events) and ("removed", BLACK) in events
        assert game.colours[BLACK] == OUT and game.phase == OVER
        assert game.scores == [3, 12, 4] and game.winner == 1 and events[-1] == ("won", 1)


def test_the_black_only_penalty_can_cost_the_offender_the_frame():
    game = black_only()
    game.scores = [20, 15]
    game.play_text("miss")
    game.play_text("K!off")  # player 2 loses 7
    assert game.scores == [20, 8] and game.winner == 0


def test_a_safety_shot_ends_the_turn_as_a_miss_does():
    game = snuka()
    play(game, "R", "G", "@G")
    missed, safe = game.copy(), game.copy()
    assert missed.play_text("miss")[0] == ("missed", 0)
    assert safe.play_text("safe")[0] == ("safety", 0)
    for other in (missed, safe):
        assert other.turn == 1 and other.scores == [4, 0] and other.on_now() == (RED,)
    assert missed.save() == safe.save()


def test_the_highest_score_wins_at_the_end():
    game = black_only(3)
    game.scores = [3, 11, 9]
    game.turn = game.actor = 2
    game.play_text("K")
    assert game.scores == [3, 11, 16] and game.winner == 2 and game.winners == (2,)


def test_a_tie_is_a_shared_win():
    game = black_only(3)
    game.scores = [5, 12, 0]
    events = game.play_text("K")
    assert game.phase == OVER and game.winner == -1 and game.winners == (0, 1)
    assert events[-2:] == [("won", 0), ("won", 1)]


def test_an_extra_counter_in_the_same_flick_scores_nothing_and_ends_the_turn():
    game = snuka()
    game.play_text("R")
    assert "+R" in legal(game) and "+Y" in legal(game)
    events = game.play_text("+R")
    assert events[0] == ("also", 0, RED) and game.reds == 13 and game.scores == [1, 0]
    assert game.turn == 1 and game.on_now() == (RED,)
    events = game.play_text("+Y")  # a third counter of that flick: no score, back it goes
    assert events[0] == ("also", 0, YELLOW) and game.turn == 1 and game.pending == [YELLOW]
    assert "+Y" not in legal(game)  # one yellow can drop only once
    play(game, "@Y", "miss")
    assert not [t for t in legal(game) if t[0] == "+"]  # a miss pots nothing


def test_an_extra_counter_can_follow_a_foul_and_may_be_the_last_red():
    game = snuka(confirm_respot=False)
    game.reds = 2
    play(game, "R", "G", "miss")  # player 2 shoots on the last red
    events = play(game, "Y!off", "+R")
    assert game.reds == 0 and game.scores == [4, -2]
    assert game.turn == 0 and events[-1] == ("on", (YELLOW,))


def test_option_wrong_pot_penalty_also_costs_an_extra_counter():
    game = snuka(wrong_pot_penalty=True)
    play(game, "R", "+B")
    assert game.scores == [1 - 5, 0] and game.turn == 1


def test_any_number_may_play_up_to_a_score_bar_each():
    assert snuka(1).players == 1 and snuka(6).players == 6
    for players in (0, 7, "2", True):
        assert "1 to 6 players" in str(raises(RulesError, snuka, players))
    data = board_data("snuka")
    for n in range(3, 7):
        del data["extras"]["score%d" % n]
    assert "1 to 2 players" in str(raises(RulesError, Snuka, data, 3))


def test_a_solo_frame_keeps_the_score_and_the_player_wins():
    game = black_only(1)
    play(game, "miss", "K")
    assert game.turn == 0 and game.scores == [7] and game.winner == 0


def test_options_are_checked():
    assert "unknown option" in str(raises(RulesError, snuka, 2, pockets=4))
    assert "must be bool" in str(raises(RulesError, snuka, 2, nominate=1))
    assert "first_player" in str(raises(RulesError, snuka, 2, first_player=3))


def test_the_notation_reads_back_every_step():
    game = snuka(nominate=True)
    steps = list(game.legal())
    game.play_text("R")
    steps += list(game.legal())
    game.play_text("=Y")
    game.play_text("Y")
    steps += list(game.legal())
    assert ("also", RED) in steps and ("respotted", YELLOW) in steps and ("nominate", BLACK) in steps
    for step in steps:
        assert game.parse(game.notation(step)) == step
    assert game.parse(" k!onto ") == ("foul", BLACK, 1) and game.parse("safe") == ("safe",)
    for text in ("X", "Y!flip", "+", "YY", "", "miss!", "!off", "+Y!off", "=YG"):
        raises(IllegalMove, game.parse, text)


def test_an_illegal_step_changes_nothing_and_says_what_is_legal():
    game = snuka()
    play(game, "R", "Y")
    before = game.save()
    for step in (("pot", RED), ("foul", GREEN, 0), ("respotted", GREEN), ("nominate", BLUE), ("pot", 9), ("jump",)):
        err = raises(IllegalMove, game.play, step)
        assert game.save() == before
    assert "@Y" in str(err)


def test_every_step_ends_with_the_counters_on_for_the_lights():
    game = snuka()
    for text in ("R", "P", "@P", "R", "B", "@B", "K!off", "@K", "miss"):
        events = game.play_text(text)
        assert events[-1] == ("on", game.on_now())


def test_the_registry_finds_the_game_by_name():
    assert "snuka" in GAMES and find_game("snuka") is Snuka
    assert new_game("snuka", board_data("snuka"), 4).players == 4
