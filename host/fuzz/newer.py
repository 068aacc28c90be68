"""Saves of newer firmware and saves for other settings, as the board starts up from them.

Each case leaves on the flash, beside a game in play, a save newer firmware
could write: a file format after ``save1`` in its header, a ``"version"``
after ``app.keeper.VERSION``, or fields this firmware does not know (at the
top, or in the game's state), of a random game of every board. The start-up
(``Keeper.resume``) must keep it aside untouched, say so, and never
overwrite it while new games are saved after it. Every tenth case is instead
a save whose players or options differ from the configuration's: it resumes
as saved, and the start-up says which settings win (``app.startup``).

Figures: *resumed* (a newer save resumed, or one for other settings not),
*overwritten* (the save kept aside is not the file's bytes, or changed once
games were saved after it), *silent* (no note, or a note that does not name
the version or what to flash; no line for other settings), *halts*.
"""

import json

from app.keeper import VERSION, Keeper
from app.startup import settings_differ
from hal import storage
from host.boardfile import read_board
from host.fuzz import HOSTILE, games_in_folders
from host.fuzz.powercuts import files, play
from host.fuzz.saves import SETUPS
from rules.games import find_game

NAME = "newer"
CASES = 3000
FIGURES = ("resumed", "overwritten", "silent", "halts")


def newer(state, steps, rng):
    """The bytes of a save newer firmware could leave, and what makes it newer."""
    saved = {"version": VERSION, "steps": steps, "state": state}
    how = rng.randrange(4)
    if how == 0:
        version = rng.choice((2, 3, 9, 10, 99, 9999))
        return storage.pack(json.dumps(saved)).replace(b"save1 ", b"save%d " % version, 1), "save file format"
    if how == 1:
        return storage.pack(json.dumps(dict(saved, version=rng.choice((2, 3, 17, 1 << 40))))), "save version"
    name = rng.choice(("undo", "clock", "x", "seed", "history", "extra"))
    value = json.loads(json.dumps(rng.choice(HOSTILE)))
    if how == 2:
        return storage.pack(json.dumps(dict(saved, **{name: value}))), "fields"
    return storage.pack(json.dumps(dict(saved, state=dict(state, **{name: value})))), "fields"


def one(folder, setup, case, rng, steps):
    name, players, options = setup
    made = find_game(name)(read_board(name), players, options)
    fresh = lambda: type(made)(made.board, made.players, made.options)  # noqa: E731
    keeper = Keeper(folder, name, log=lambda text: None)
    game = fresh()
    keeper.begin(game)
    play(keeper, game, rng.randrange(40), steps)
    if case % 10 == 9:
        return _other_settings(folder, name, game, players, options, rng)
    blob, why = newer(game.save(), keeper.steps, rng)
    with open(keeper.save_path, "wb") as f:
        f.write(blob)
    starting = Keeper(folder, name, log=lambda text: None)
    resumed, note = starting.resume(fresh())
    if resumed is not None:
        return "resumed", "a save with a newer %s resumed" % why
    if why not in note or "newer firmware" not in note or "flash the firmware that saved it" not in note:
        return "silent", note
    kept = [k for k in files(folder) if ".sav.newer" in k]
    if len(kept) != 1 or files(folder)[kept[0]] != blob:
        return "overwritten", "kept aside: %s" % kept
    starting.begin(fresh())
    again = fresh()
    play(starting, again, 5, steps)
    Keeper(folder, name, log=lambda text: None).resume(fresh())
    if files(folder).get(kept[0]) != blob:
        return "overwritten", "changed once a new game was saved"
    return None


def _other_settings(folder, name, game, players, options, rng):
    """A save for other players or options than the configuration's: it resumes, and the start-up says so."""
    others = [(p, o) for n, p, o in SETUPS if n == name and (p, o) != (players, options)]
    config_players, config_options = rng.choice(others)
    configured = find_game(name)(read_board(name), config_players, config_options)
    resumed, _ = Keeper(folder, name, log=lambda text: None).resume(configured)
    if resumed is None or resumed.save() != game.save():
        return "resumed", "a save for other settings did not resume as saved"
    said = settings_differ(resumed, configured)
    if not said or "goes on as it was saved" not in said:
        return "silent", "no line for %d players %s against %d players %s" % (
            players, options, config_players, config_options)
    return None


def run(cases=CASES, seed=1):
    return games_in_folders(NAME, "saves", FIGURES, cases, seed, one)
