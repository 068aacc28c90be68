"""Random Tiddlee Snuka frames: the referee stays consistent at every step, the
score is always what the events add up to, and no counter is lost or doubled.
Also saving, loading and copying. The same seeds give the same frames on
CPython and MicroPython; the summary is compared between the two."""

import json

from rules.core import OVER, IllegalMove, SaveError
from rules.playout import Rng, random_game, random_record, random_step
from rules.snuka import BLACK, DOWN, OUT, RED, UP, Snuka
from support import REPORTS, raises
from test_snuka_rules import snuka, snuka_board

FRAMES = 30
REDS = 15
_OPTIONS = ("nominate", "colour_after_last_red", "wrong_pot_penalty", "confirm_respot")


class Ledger:
    """What the events say happened, kept apart from the game's own state."""

    def __init__(self, game):
        self.scores = [0] * game.players
        self.reds_down = 0
        self.colours = [UP] * 7

    def read(self, events):
        back = [e[1] for e in events if e[0] == "respot"]
        for e in events:
            if e[0] == "potted" or e[0] == "also":
                c = e[2]
                if e[0] == "potted":
                    self.scores[e[1]] += e[3]
                if c == RED:
                    self.reds_down += 1
                elif c not in back:
                    self.colours[c] = DOWN
            elif e[0] == "penalty":
                self.scores[e[1]] -= e[3]
            elif e[0] == "removed":
                self.colours[e[1]] = OUT
            elif e[0] == "score":
                assert self.scores[e[1]] == e[2], "the score event disagrees with the points"


def check(game, ledger):
    """What must hold in every reachable state."""
    assert game.scores == ledger.scores, "scores %s, events say %s" % (game.scores, ledger.scores)
    # every red is either in play or down; every colour in exactly one place
    assert game.reds + ledger.reds_down == REDS
    assert list(game.colours[1:]) == ledger.colours[1:]
    assert game.pending.count(RED) <= game.reds
    assert all(c == RED or game.colours[c] == UP for c in game.pending)
    assert not game.pending or game.options["confirm_respot"]
    assert game.chance_outcomes() == () and not game.is_chance()
    if game.phase == OVER:
        assert game.reds == 0 and all(game.colours[c] != UP for c in range(1, 7))
        best = max(game.scores)
        assert game.winners == tuple(p for p in range(game.players) if game.scores[p] == best)
        assert game.winner == (game.winners[0] if len(game.winners) == 1 else -1)
        assert game.legal() == ()
    else:
        assert game.legal(), "nothing legal"
        assert game.on_now() and game.winners == () and game.winner == -1
        assert all(game.in_play(c) for c in game.on_now() if not game.pending)
        if game.reds and not game.free:
            assert game.on_now() == (RED,)  # "Players must in all cases begin with a red"


def options_for(seed):
    """Every option combination turns up across the seeds."""
    return dict((name, bool(seed >> n & 1) != (name in ("colour_after_last_red", "confirm_respot")))
                for n, name in enumerate(_OPTIONS))


def play_checked(seed, players):
    game = snuka(players, **options_for(seed))
    ledger = Ledger(game)
    rng = Rng(seed)
    steps = 0
    while not game.over():
        check(game, ledger)
        step = random_step(game, rng)
        if steps % 11 == 0:
            before = game.save()
            raises(IllegalMove, game.play, ("pot", 7))
            raises(IllegalMove, game.play, ("respotted", RED) if not game.pending else ("nominate", RED))
            assert game.save() == before
        ledger.read(game.play(step))
        steps += 1
        assert steps < 100000
    check(game, ledger)
    return game, steps


def test_random_frames_end_with_the_scores_the_events_add_up_to():
    wins = [0] * 6
    ties = total = removed = 0
    for seed in range(FRAMES):
        game, steps = play_checked(seed, 1 + seed % 6)
        total += steps
        if game.winner >= 0:
            wins[game.winner] += 1
        else:
            ties += 1
        removed += game.colours[BLACK] == OUT
    assert sum(wins) + ties == FRAMES
    REPORTS["snuka random games"] = "%d frames, %d steps, wins %s, ties %d, black removed %d" % (
        FRAMES, total, wins, ties, removed)


def test_random_game_helper_plays_a_frame_to_its_end():
    game = snuka(4)
    steps = random_game(game, Rng(77))
    assert game.over() and steps > 30


def test_save_and_load_round_trip_through_json_at_every_step():
    game = snuka(3, nominate=True)
    rng = Rng(5)
    while not game.over():
        text = json.dumps(game.save())
        back = Snuka.load(snuka_board(), json.loads(text))
        assert back.save() == game.save() and back.legal() == game.legal()
        game.play(random_step(game, rng))
    assert Snuka.load(snuka_board(), game.save()).save() == game.save()


def test_a_shared_win_saves_and_loads():
    game = snuka(2)
    game.reds = 0
    for c in range(1, 6):
        game.colours[c] = DOWN
    game.on = BLACK
    game.scores = [0, 7]
    game.play_text("K")
    assert game.winner == -1 and game.winners == (0, 1)
    back = Snuka.load(snuka_board(), json.loads(json.dumps(game.save())))
    assert back.save() == game.save() and back.over()
    bad = game.save()
    bad["winners"] = [1]
    assert "winners" in str(raises(SaveError, Snuka.load, snuka_board(), bad))


def played(seed, steps, players=3, **options):
    game = snuka(players, **options)
    random_record(game, Rng(seed), steps)
    return game


def test_a_save_is_small():
    assert len(json.dumps(played(3, 120).save())) < 500


def test_a_copy_is_independent_of_the_original():
    game = played(8, 40)
    twin = game.copy()
    assert twin.save() == game.save()
    rng = Rng(9)
    while twin.save() == game.save():
        twin.play(random_step(twin, rng))
    assert Snuka.load(snuka_board(), game.save()).save() == game.save()


def test_corrupt_saves_are_refused_naming_the_field():
    good = played(11, 30).save()
    cases = (
        ({"game": "detour"}, "not 'snuka'"),
        ({"board": "other"}, "board"),
        ({"players": 9}, "1 to 6"),
        ({"phase": 0}, "'phase'"),
        ({"turn": 5}, "'turn'"),
        ({"actor": (good["turn"] + 1) % 3}, "actor"),
        ({"scores": [1, 2]}, "'scores'"),
        ({"reds": 16}, "'reds'"),
        ({"colours": [0, 0, 3, 0, 0, 0]}, "'colours'"),
        ({"colours": [0, 1, 0, 0, 0, 0]}, "rotation"),
        ({"reds": 0, "colours": [1, 1, 1, 1, 1, 2]}, "black"),
        ({"on": 9}, "'on'"),
        ({"on": 3}, "'on' is 3"),
        ({"pending": ["Y"]}, "'pending'"),
        ({"pending": [0] * 16}, "pending counter red"),
        ({"sent": 1}, "'sent'"),
        ({"winner": 1}, "winner"),
        ({"winners": [0]}, "winner"),
        ({"phase": 4}, "not over"),
        ({"free": 1}, "'free'"),
    )
    for changes, words in cases:
        bad = dict(good)
        bad.update(changes)
        assert words in str(raises(SaveError, Snuka.load, snuka_board(), bad)), changes
    missing = dict(good)
    del missing["scores"]
    assert "'scores'" in str(raises(SaveError, Snuka.load, snuka_board(), missing))
