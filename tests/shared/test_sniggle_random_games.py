"""Random complete Sniggle games: the protocol and the rules hold at every step.

The same seeds give the same games on CPython and MicroPython; the summary
is compared between the two interpreters."""

from rules.core import DECIDE, OVER, ROLL
from rules.playout import Rng, random_game, random_step
from rules.record import dumps, header, line, replay
from rules.sniggle import Sniggle, die_of, move, piece_of
from support import REPORTS, board_data, play_to_the_end
from test_sniggle_rules import sniggle, sniggle_board

GAMES = 12  # MicroPython runs these too: a few seconds


def check(game):
    """What must hold in every reachable state."""
    board = game.board
    assert len(set(game.pos)) == len(game.pos), "two pieces on one space"
    for p, s in enumerate(game.pos):
        kind = board.kinds[s]
        assert kind not in ("start", "home") or s in (game.start_of(p), game.home_of(p))
        assert (game.lane[p] >= 0) == (kind == "zone")
        if kind == "zone":  # never past the space beside its matching square
            lane = game.lane[p]
            assert board.place[lane][s] <= board.entry[lane][game.square(p)]
    if game.is_chance():
        outcomes = game.chance_outcomes()
        assert len(outcomes) == 36 and sum(n for _, n, _ in outcomes) == 36 and not game.legal()
        assert game.phase == ROLL and not game.dice and (game.opening or game.actor == game.turn)
    elif game.phase == DECIDE:
        assert game.legal(), "a decision with no legal move"
        assert all(die_of(m) in game.dice and 0 <= piece_of(m) < 4 for m in game.legal())
        assert game.actor == game.turn and not game.opening
    assert (game.phase == OVER) == (game.winner >= 0)
    if game.phase == OVER:
        assert not game.in_play(game.winner)
    else:
        assert all(game.in_play(player) for player in range(game.players))


def play_checked(seed, players, **options):
    game = sniggle(players, **options)
    return game, play_to_the_end(game, seed, check, move(0, 7, 0), 5)


def test_random_games_end_with_a_winner():
    wins = [0] * 4
    total = 0
    for seed in range(GAMES):
        game, steps = play_checked(seed, 2 + seed % 3, larger_die=seed % 4 == 3)
        wins[game.winner] += 1
        total += steps
    assert sum(wins) == GAMES
    REPORTS["sniggle random games"] = "%d games, %d steps, wins %s" % (GAMES, total, wins)


def test_random_game_helper_counts_steps():
    game = sniggle(3)
    steps = random_game(game, Rng(99))
    assert game.over() and steps > 40


def test_a_random_record_replays_to_the_same_state():
    game = sniggle(3, colours="YGB")
    lines = [dumps(header(game))]
    rng = Rng(21)
    for _ in range(250):
        step = random_step(game, rng)
        lines.append(dumps(line(game, step)))
        game.play(step)
    assert replay(lines, board_data).save() == game.save()
    assert Sniggle.load(sniggle_board(), game.save()).save() == game.save()
