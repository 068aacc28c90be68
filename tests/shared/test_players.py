"""The computer players: legal choices in every game, the same choices on
both interpreters for the same seed, budgets kept, a win taken."""

from rules.core import ROLL, RulesError
from rules.games import GAMES, new_game
from rules.players import WIN, GreedyPlayer, RandomPlayer, SearchPlayer, chances, evaluate, plans, play_out
from rules.playout import Rng, random_step
from rules.sniggle import move
from rules.snuka_tactics import FOUL_PERCENT, POT_PERCENT
from support import REPORTS, board_data, raises

_boards = {}


def fresh(name, players=2, options=None):
    """A new game on a board loaded once per game (the players keep tables per board)."""
    if name not in _boards:
        _boards[name] = new_game(name, board_data(name), players, options).board
    return new_game(name, _boards[name], players, options)


def trio(seed):
    return (RandomPlayer(Rng(seed)), GreedyPlayer(Rng(seed + 1)), SearchPlayer(Rng(seed + 2), nodes=30))


def test_every_player_chooses_a_legal_step_in_every_game():
    for name in GAMES:
        game, rng, checked, steps = fresh(name), Rng(7), 0, 0
        players = trio(3)
        while not game.over() and checked < 25:
            if not game.is_chance() and steps % 3 == 0:
                legal = game.legal()
                for player in players:
                    assert player.choose(game) in legal, "%s: %s chose an illegal step" % (name, player.name)
                checked += 1
            game.play(random_step(game, rng))
            steps += 1
        assert checked > 0, name


def test_a_pick_is_a_legal_decision_or_in_snuka_a_counter_on():
    for name in GAMES:
        game, rng = fresh(name), Rng(11)
        while game.is_chance():
            game.play(random_step(game, rng))
        for player in trio(5):
            choice = player.pick(game)
            if name == "snuka":
                assert choice == ("safe",) or (choice[0] == "aim" and choice[1] in game.on_now()), choice
            else:
                assert choice in game.legal(), (name, choice)


def test_a_player_is_asked_only_when_there_is_a_decision():
    game = fresh("detour")
    assert game.phase == ROLL
    raises(RulesError, GreedyPlayer(Rng(1)).choose, game)


def test_snuka_shots_are_the_flick_model_and_add_up_to_one():
    game = fresh("snuka")
    options = plans(game)
    assert [choice for choice, _ in options] == [("aim", 0), ("safe",)]  # only the red is on
    aim = options[0][1]
    assert [(step, num) for step, num, _ in aim] == [
        (("pot", 0), POT_PERCENT[0]), (("foul", 0, 0), FOUL_PERCENT), (("miss",), 100 - POT_PERCENT[0] - FOUL_PERCENT)]
    for _, outcomes in options:
        assert sum(num * 100 // den for _, num, den in outcomes) == 100  # percent, or one sure step
        for step, _, _ in outcomes:
            assert step in game.legal()


def test_folded_chance_keeps_every_probability():
    detour = fresh("detour")
    detour.play((1, 2))  # the first roll is two dice
    detour.play(detour.legal()[0])
    detour.play(detour.legal()[0])
    mehen = fresh("mehen")
    for game, count in ((detour, 21), (mehen, 4)):
        while not game.is_chance():
            game.play(game.legal()[0])
        folded = chances(game)
        assert len(folded) == count
        den = folded[0][2]
        assert all(d == den for _, _, d in folded) and sum(num for _, num, _ in folded) == den


def test_the_winner_is_rated_a_win():
    game = fresh("mehen")
    play_out(game, (GreedyPlayer(Rng(1)), RandomPlayer(Rng(2))), Rng(3))
    assert evaluate(game, game.winner) == WIN
    assert evaluate(game, 1 - game.winner) == -WIN


def test_greedy_and_search_take_the_move_that_wins():
    game = fresh("mehen")
    end = game.board.length
    game.marbles[0:3] = [end, end - 1, 5]  # marble b is one square from home
    game.play(1)  # one flat side: a throw of 1
    assert game.legal() == (("m", 1), ("m", 2))
    for player in (GreedyPlayer(Rng(1)), SearchPlayer(Rng(2))):
        assert player.choose(game) == ("m", 1), player.name


def test_sniggle_search_sees_that_the_next_throw_may_send_a_piece_back():
    game = fresh("sniggle")
    board = game.board
    game.opening = []  # the first turn is settled: red throws
    for p in (1, 2, 3):
        game.pos[p] = board.home[game.square(p)]
    f9, e7 = board.space("f9"), board.space("e7")
    game.pos[0], game.pos[4] = board.space("f7"), board.space("f5")  # red's last piece, blue's two rows behind
    game.play((1, 2))
    ahead, aside = game.copy(), game.copy()
    ahead.play(move(0, 2, f9))  # blue lands there with a 4 or a 6: 20 throws in 36
    aside.play(move(0, 1, e7))  # a red space: safe
    assert evaluate(ahead, 0, True) < evaluate(ahead, 0) and evaluate(aside, 0, True) == evaluate(aside, 0)
    assert evaluate(ahead, 1, True) > evaluate(ahead, 1)  # blue throws next: it risks nothing
    assert GreedyPlayer(Rng(1)).pick(game) == move(0, 2, f9)  # two steps on
    assert SearchPlayer(Rng(1)).pick(game) == move(0, 1, e7)


def test_search_keeps_its_node_budget_and_falls_back_to_one_step_ahead():
    game = fresh("detour")
    game.play((3, 5))
    tight = SearchPlayer(Rng(1), nodes=1)
    assert tight.choose(game) in game.legal()
    assert tight.reached == 0  # not even this throw fitted in one state
    roomy = SearchPlayer(Rng(1), nodes=5000, throws=1)
    assert roomy.choose(game) in game.legal()
    assert roomy.reached == 1


def test_search_keeps_its_time_limit():
    now = [0]

    def clock():  # every reading is a millisecond later
        now[0] += 1
        return now[0]

    game = fresh("detour")
    game.play((3, 5))
    player = SearchPlayer(Rng(1), nodes=100000, ms=5, clock=clock)
    assert player.choose(game) in game.legal()
    assert player.reached < player.throws
    assert now[0] < 10  # the clock is read every 16 states


def test_players_games_repeat_with_their_seeds():
    results = []
    for name in GAMES:
        outcome = []
        for _ in range(2):
            game = fresh(name)
            seats = (SearchPlayer(Rng(1), nodes=30), GreedyPlayer(Rng(2)))
            steps = play_out(game, seats, Rng(3))
            outcome.append((game.winner, steps, game.save()))
        assert outcome[0] == outcome[1], name
        results.append("%s: %s won after %d steps" % (name, outcome[0][0] + 1 or "nobody", outcome[0][1]))
    REPORTS["players games"] = "; ".join(results)
