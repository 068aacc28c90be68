"""Random complete Mehen games in both variants, every step checked, and the
throw sticks sampled through the chance interface.

The same seeds give the same games on CPython and MicroPython; the summaries
are compared between the two interpreters."""

from rules.core import DECIDE, OVER, ROLL, IllegalMove
from rules.mehen import MARBLES, VALUE
from rules.playout import Rng, sample
from support import REPORTS, raises
from test_mehen_rules import mehen

GAMES = 30


def check(game):
    """What must hold in every reachable state."""
    end = game.board.length
    assert len(game.marbles) == game.players * MARBLES
    assert min(game.marbles) >= 0 and max(game.marbles) <= end
    options = game.options
    assert len(game.lions) == (options["lions"] if options["hunt"] else 0)
    if game.lions:
        assert min(game.lions) >= 0 and max(game.lions) <= (end - 1 if options["lions_return"] else end)
    if game.is_chance():
        outcomes = game.chance_outcomes()
        assert len(outcomes) == 8 and sum(n for _, n, _ in outcomes) == 8 and not game.legal()
        assert game.phase == ROLL and game.sticks == -1
    elif game.phase == DECIDE:
        assert game.legal() and game.sticks >= 0, "a throw waits but nothing can move"
    done = [p for p in range(game.players) if game.home(p) == MARBLES]
    assert (game.phase == OVER) == (game.winner >= 0)
    assert done == ([game.winner] if game.over() else [])
    assert game.actor == game.turn


def check_step(game, before, step, events):
    """Only the moved piece advances, by the throw (less only on reaching home);
    a marble goes back only to the tail, and only when an 'eaten' event names it."""
    end = game.board.length
    value = VALUE[before.sticks]
    eaten = [e[1] * MARBLES + e[2] for e in events if e[0] == "eaten"]
    moved = before.turn * MARBLES + step[1] if step[0] == "m" else -1
    for m in range(len(game.marbles)):
        was, now = before.marbles[m], game.marbles[m]
        if m == moved:
            assert now == was + value or (now == end and was + value > end)
        elif m in eaten:
            assert m // MARBLES != before.turn and 0 < was < end and now == 0
        else:
            assert now == was
    if step[0] == "l":
        was, now = before.lions[step[1]], game.lions[step[1]]
        assert now in (was + value, 0, end) and (now == was + value or was + value >= end)
        square = game.board.route[now]
        assert not eaten or all(game.board.route[before.marbles[m]] == square for m in eaten)
    else:
        assert not eaten and game.lions == before.lions


def play_checked(seed, players, options):
    game = mehen(players, **options)
    rng = Rng(seed)
    steps = eaten = 0
    while not game.over():
        check(game)
        if game.is_chance():
            game.play(sample(game.chance_outcomes(), rng))
        else:
            if steps % 5 == 0:
                saved = game.save()
                raises(IllegalMove, game.play, ("l", 6))
                assert game.save() == saved
            before = game.copy()
            step = rng.choice(game.legal())
            events = game.play(step)
            check_step(game, before, step, events)
            eaten += sum(1 for e in events if e[0] == "eaten")
        steps += 1
        assert steps < 100000
    check(game)
    return game, steps, eaten


def options_for(seed):
    """A spread of the rule options over the seeds; even seeds play the race."""
    options = {"hunt": seed % 2 == 1}
    if seed % 4 == 3:
        options.update(exact_head=True, exact_home=True)
    if seed % 3 == 1:
        options["extra_throw"] = 6
    if seed % 8 == 5:
        options["lion_start"] = "head"
    if seed % 8 == 1:
        options.update(lions=1, lions_return=True)  # a lion that never leaves makes long games
    return options


def test_random_games_of_both_variants_end_with_a_winner():
    wins = [0] * 6
    total = eaten = 0
    for seed in range(GAMES):
        players = 6 if seed == 15 else 2 + seed % 3
        game, steps, bites = play_checked(seed, players, options_for(seed))
        wins[game.winner] += 1
        total += steps
        eaten += bites
    assert sum(wins) == GAMES and eaten > 0
    REPORTS["mehen random games"] = "%d games, %d steps, wins %s, %d marbles eaten" % (GAMES, total, wins, eaten)


def test_the_sticks_sampled_through_the_chance_interface_fall_as_the_odds_say():
    game = mehen()
    rng = Rng(2024)
    throws = 8000
    masks = [0] * 8
    for _ in range(throws):
        masks[sample(game.chance_outcomes(), rng)] += 1
    values = {6: 0, 1: 0, 2: 0, 3: 0}
    for mask in range(8):
        values[VALUE[mask]] += masks[mask]
    expected = {6: throws / 8, 1: throws * 3 / 8, 2: throws * 3 / 8, 3: throws / 8}
    chi_values = sum((values[v] - expected[v]) ** 2 / expected[v] for v in values)
    chi_masks = sum((c - throws / 8) ** 2 / (throws / 8) for c in masks)
    # 0.1% critical values of chi-square: 3 degrees of freedom 16.27, 7 degrees 24.32
    assert chi_values < 16.27 and chi_masks < 24.32, (values, masks)
    REPORTS["mehen sticks"] = "%d throws: six %d, one %d, two %d, three %d" % (
        throws, values[6], values[1], values[2], values[3])
