"""A save loads only as a state the rules can reach: every field combination
a game cannot produce is refused with a SaveError naming the field, never
loaded (to leave the board stuck, or to fail at the next save) and never a
crash. Every state real games reach still loads as itself."""

import json

import pytest

from host.boardfile import read_board
from host.fuzz import saves
from rules.core import DECIDE, OVER, POPOFF, ROLL, SaveError
from rules.games import new_game
from rules.playout import Rng, random_step


def reached(name, players, options, seed, wanted):
    """A save of the first state a seeded random game reaches where ``wanted(game)`` holds."""
    game = new_game(name, read_board(name), players, options)
    rng = Rng(seed)
    while not wanted(game):
        assert not game.over(), "the game ended before the state was reached"
        game.play(random_step(game, rng))
    return game, game.save()


def refused(game, data):
    with pytest.raises(SaveError) as err:
        type(game).load(game.board, json.loads(json.dumps(data)))
    return str(err.value)


@pytest.mark.parametrize("name,players,options", saves.SETUPS)
def test_every_state_of_a_random_game_loads_as_itself(name, players, options):
    game = new_game(name, read_board(name), players, options)
    rng = Rng(len(name) + players)
    while True:
        data = json.loads(json.dumps(game.save()))
        assert type(game).load(game.board, data).save() == data
        if game.over():
            break
        game.play(random_step(game, rng))


@pytest.mark.parametrize("name,players,options", saves.SETUPS)
def test_a_copy_holds_the_whole_state_and_a_step_on_it_leaves_the_original_alone(name, players, options):
    game = new_game(name, read_board(name), players, options)
    rng = Rng(len(name) + players)
    while not game.over():
        other = game.copy()
        assert vars(other) == vars(game)  # every attribute, none forgotten
        before = game.save()
        step = random_step(other, Rng(rng.below(1000)))
        other.play(step)
        assert game.save() == before
        game.play(step)
        assert game.save() == other.save()
        game = other if rng.below(2) else game  # play on from the copy too, now and then


def test_a_detour_pop_off_with_one_piece_is_refused_not_a_crash():
    game, data = reached("detour", 2, {}, 3, lambda g: g.phase == POPOFF)
    data["duel"] = data["duel"][:1]
    assert "'duel'" in refused(game, data)


def test_a_detour_move_awaited_without_dice_is_refused():
    game, data = reached("detour", 2, {}, 1, lambda g: g.phase == DECIDE and g.loser < 0)
    data["dice"] = []
    assert "'phase' awaits a decision but none is legal" in refused(game, data)
    data["moved"] = data["turn"] * 2  # after the first die, with the player's other piece finished
    data["dice"] = [3]
    data["pos"][data["turn"] * 2 + 1] = -2
    assert "'phase' awaits a decision but none is legal" in refused(game, data)


def test_a_third_piece_on_the_pop_off_space_is_refused():
    # it would stay beside the winner, and the next save would be refused: the game lost
    def wanted(game):
        if game.phase != POPOFF:
            return None
        return [p for p in range(len(game.pos)) if p not in game.duel and game.pos[p] >= 0
                and game.board.kinds[game.pos[p]] != "start"]

    game, data = reached("detour", 3, {}, 5, wanted)
    attacker, defender = data["duel"]
    third = wanted(game)[0]
    data["pos"][third] = data["pos"][attacker]
    data["head"][third] = data["head"][attacker]
    assert "two pieces on space" in refused(game, data)
    data = game.save()
    data["pos"][defender] = data["pos"][third]  # the defender beside a third piece, away from the attacker
    data["head"][defender] = data["head"][third]
    assert "two pieces on space" in refused(game, data)
    data = game.save()
    data["duel"] = [defender, attacker]  # the defender named as the one that moved
    assert "'duel'" in refused(game, data)


def test_detour_pieces_off_the_board_out_of_turn_are_refused():
    game, data = reached("detour", 3, {}, 2, lambda g: g.phase == ROLL and g.turn == 2)
    data["pos"][0] = data["pos"][1] = -1  # the first player's pieces back in the box
    assert "'pos'" in refused(game, data)
    data = game.save()
    data["turn"] = data["actor"] = 0  # the third player has not been placed, yet the first rolls again
    assert "'turn'" in refused(game, data)


def test_detour_phase_flags_and_winner_must_fit():
    game, data = reached("detour", 2, {}, 4, lambda g: g.phase == ROLL and -1 not in g.pos)
    data["star"] = True
    assert "'star'" in refused(game, data)
    data = game.save()
    data["phase"], data["winner"], data["moved"] = OVER, data["turn"], 2 * data["turn"]  # pieces still out
    assert "'winner'" in refused(game, data)
    data = game.save()
    data["actor"] = 1 - data["turn"]
    assert "'actor'" in refused(game, data)


def test_snuka_scores_beyond_the_counters_potted_are_refused():
    game = new_game("snuka", read_board("snuka"), 2, {})
    data = game.save()
    data["scores"] = [1, 0]  # nothing potted yet
    assert "'scores'" in refused(game, data)
    game.play(("pot", 0))  # a red: 1 point
    data = game.save()
    data["scores"] = [9, 0]  # more than a red and the black
    assert "'scores'" in refused(game, data)
    data["scores"] = [-3, 0]  # penalties take points away without end
    type(game).load(game.board, data)
    game = new_game("snuka", read_board("snuka"), 3, {})
    game.play(("pot", 0))
    data = game.save()
    data["scores"] = [5, 5, -7]  # two players with more than the one red and a colour give, however low the third
    assert "'scores'" in refused(game, data)


def test_snuka_a_colour_waiting_twice_to_go_back_is_refused():
    game = new_game("snuka", read_board("snuka"), 2, {})
    game.play(("foul", 0, 0))  # a red off the cloth: it waits to be put back
    data = game.save()
    data["pending"] = [1, 1]
    assert "pending counter yellow" in refused(game, data)


def test_snuka_a_free_colour_with_colours_down_is_refused():
    game = new_game("snuka", read_board("snuka"), 2, {"nominate": True})
    data = game.save()
    data.update(reds=0, colours=[1] * 6, on=-1, free=True, scores=[27, 0])
    assert "'on'" in refused(game, data)


def test_sniggle_first_throws_with_pieces_moved_are_refused():
    game = new_game("sniggle", read_board("sniggle"), 3, {})
    data = game.save()
    data["pos"][0] = game.board.start_cell[game.square(0)]  # out in front of its square
    assert "'opening'" in refused(game, data)
    data = game.save()
    data["opening"] = [1, 0, 2]
    data["turn"] = data["actor"] = 1
    assert "'opening'" in refused(game, data)



# ---- saves made from the checks themselves --------------------------------------------

GAME_MODULES = ("rules.core", "rules.detour", "rules.sniggle", "rules.mehen", "rules.snuka")
GENERATED = 400  # saves per setup


def learn_checks(setup, monkeypatch):
    """What ``load`` checks of each field, as it checks a real save: {name:
    ("int", low, high) | ("ints", length, low, high) | ("field", kind)}."""
    import importlib

    import rules.core as core

    learnt = {}
    real_int, real_ints, real_field = core.save_int, core.save_ints, core.field

    def save_int(data, name, low, high):
        learnt[name] = ("int", low, high)
        return real_int(data, name, low, high)

    def save_ints(data, name, length, low, high):
        learnt[name] = ("ints", length, low, high)
        return real_ints(data, name, length, low, high)

    def field(data, name, kind, where, error=None):
        learnt.setdefault(name, ("field", kind))
        return real_field(data, name, kind, where, error)

    with monkeypatch.context() as patch:
        for module in map(importlib.import_module, GAME_MODULES):
            for name, fn in (("save_int", save_int), ("save_ints", save_ints), ("field", field)):
                if hasattr(module, name):
                    patch.setattr(module, name, fn)
        for state in setup.states[::max(1, len(setup.states) // 20)]:
            setup.load(json.loads(json.dumps(state)))
    return learnt


def drawn(check, value, rng):
    """A value the check ``check`` lets through, near ``value`` half the time."""
    kind = check[0]
    if kind == "int":
        low, high = check[1], min(check[2], check[1] + 400)
        return rng.randint(low, high) if rng.random() < 0.5 or not isinstance(value, int) else \
            max(low, min(high, value + rng.choice((-2, -1, 1, 2))))
    if kind == "ints":
        length, low, high = check[1], check[2], min(check[3], check[2] + 400)
        if length is None:
            length = len(value) + rng.choice((-1, 0, 1)) if value else rng.randrange(3)
        values = list(value) if isinstance(value, list) and len(value) == length else [low] * length
        for _ in range(rng.randrange(1, 3)):
            if values:
                values[rng.randrange(length)] = rng.randint(low, high)
        return values
    if check[1] is bool:
        return not value
    return value


@pytest.mark.parametrize("setup", saves.SETUPS, ids=lambda s: "%s-%d-%s" % (s[0], s[1], "-".join(sorted(s[2]))))
def test_a_save_made_within_what_load_checks_loads_only_if_every_step_from_it_saves_and_loads(setup, monkeypatch):
    # any field set to a value the checks let through, alone or with others: a state
    # that loads must go on, and the save of every step from it load as that state
    import random

    name, players, options = setup
    made = saves.Setup(name, players, options, Rng(11))
    learnt = learn_checks(made, monkeypatch)
    fields = sorted(n for n in learnt if n not in ("game", "board", "players", "options"))
    rng = random.Random(name + str(players))
    loaded = 0
    for _ in range(GENERATED):
        data = json.loads(json.dumps(rng.choice(made.states)))
        for field_name in rng.sample(fields, rng.randrange(1, 4)):
            data[field_name] = drawn(learnt[field_name], data.get(field_name), rng)
        try:
            game = made.load(data)
        except SaveError:
            continue
        loaded += 1
        if game.over():
            continue
        steps = [o for o, _, _ in game.chance_outcomes()] if game.is_chance() else list(game.legal())
        assert steps, ("nothing to play", data)
        for step in rng.sample(steps, min(3, len(steps))):
            after = game.copy()
            after.play(step)
            saved = json.loads(json.dumps(after.save()))
            try:
                again = made.load(saved)
            except SaveError as err:
                raise AssertionError("loaded %s, but after %r its save is refused: %s"
                                     % (json.dumps(data), game.notation(step), err))
            assert again.save() == saved
    assert loaded > GENERATED // 20, loaded  # the generated saves reach the games' own states too
