"""What the sensors of each board should see: where the pieces stand, and
which lift-and-put-down realises each decision."""

from rules.core import EMPTY, LION
from rules.games import new_game
from rules.playout import Rng, random_step
from support import board_data

SETUPS = (("detour", 3, {"pieces": 2}), ("detour", 2, {"pieces": 4}), ("sniggle", 4, {}),
          ("mehen", 3, {"hunt": True}), ("mehen", 2, {}))


def check_moves(game):
    before = game.occupancy()
    owners = game.owners()
    for s in range(len(before)):
        # a space is drawn in a player's colour exactly where a piece stands
        assert (owners[s] != EMPTY) == (before[s] > 0), game.board.ids[s]
        assert owners[s] in (EMPTY, LION) or owners[s] < game.players
    pieces = sum(before)
    by_decision = {}
    for decision, start, end in game.moves():
        assert decision in game.legal() and decision not in by_decision
        by_decision[decision] = end
        assert before[start] >= 1, "nothing to lift at %s" % game.board.ids[start]
        after = game.copy()
        events = [e[0] for e in after.play(decision)]
        now = after.occupancy()
        # the piece stands where it was put down, left play from there (finish, home),
        # or went back to START with the own piece it landed on (Detour)
        assert now[end] >= 1 or sum(now) == pieces - 1 or "collided" in events
        assert sum(now) in (pieces, pieces - 1)
    for decision in game.legal():
        assert decision in by_decision or decision[0] == "w"  # a Detour wheel turn is sensed by its encoder


def test_every_piece_decision_is_a_lift_and_a_put_down():
    for name, players, options in SETUPS:
        game = new_game(name, board_data(name), players, options)
        rng = Rng(len(name) + players)
        decisions = 0
        for _ in range(400):
            if game.over():
                break
            if not game.is_chance():
                check_moves(game)
                decisions += 1
            game.play(random_step(game, rng))
        assert decisions > 20, name


def test_the_pieces_start_where_the_rules_put_them():
    sniggle = new_game("sniggle", board_data("sniggle"), 2)
    assert sum(sniggle.occupancy()) == 8
    mehen = new_game("mehen", board_data("mehen"), 3, {"hunt": True, "lions": 2})
    assert mehen.occupancy()[0] == 3 * 3 + 2  # every marble and lion on the tail
    detour = new_game("detour", board_data("detour"), 2)
    assert sum(detour.occupancy()) == 0  # placed on the STARTs at each player's first turn
    detour.play((1, 2))
    assert sum(detour.occupancy()) == 2


def test_a_flicking_game_tracks_no_pieces():
    snuka = new_game("snuka", board_data("snuka"), 2)
    assert snuka.occupancy() is None and snuka.owners() is None and snuka.moves() == ()
