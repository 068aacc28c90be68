"""The game on the flash: whatever a save holds, the board starts; a power
cut at any write of the save or the record leaves a game that resumes, with
a record that replays to it; each board keeps its own game.

A power cut is the simulated one the storage tests use (``host.rig``):
every byte written, rename and remove of ``hal.storage`` is a step, and the
power goes after a given number of them, leaving what was written. The
check after each cut is the power-cut campaign's (``host.fuzz.powercuts``)."""

import json
import os
import tempfile
import tracemalloc

import pytest

from app.keeper import BAD, SAVES, Keeper
from hal import storage
from host.fuzz.powercuts import every_cut, files, play, replayed, restore
from rules.games import new_game
from rules.playout import Rng, random_step
from rules.record import line
from support import board_data, done, wipe

pytestmark = pytest.mark.slow

GAMES = (("detour", 2), ("sniggle", 4), ("mehen", 2), ("snuka", 6))


@pytest.fixture
def folder():
    # in memory where there is such a filesystem: these tests write tens of thousands of files
    path = tempfile.mkdtemp(dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    yield path + "/"
    done(path)


def new(name, players=2, _made={}):
    """A new game; the board is read once (it takes longer than all the rest)."""
    if (name, players) not in _made:
        _made[name, players] = new_game(name, board_data(name), players)
    made = _made[name, players]
    return type(made)(made.board, players, made.options)


# ---- whatever a save holds, the board starts ------------------------------------------

def variants(value):
    """Values a damaged or hand-edited save could hold instead of ``value``."""
    yield from (None, -1, 1 << 40, "x", [], {}, True, 0.5)
    if isinstance(value, int) and not isinstance(value, bool):
        yield from (value + 1, value - 1)
    if isinstance(value, list):
        yield from (value[:1], value[:-1], value + [0], [value])
        for i in range(len(value)):
            for other in (-1, 99, None, [0]):
                yield value[:i] + [other] + value[i + 1:]


def mutations(state):
    for key in state:
        yield {k: v for k, v in state.items() if k != key}
        for value in variants(state[key]):
            yield dict(state, **{key: value})


def saves(name, players):
    """Real saves of a game: at the start, early, and later in a seeded random game."""
    game, rng = new(name, players), Rng(5)
    found = [game.save()]
    for steps in (7, 33, 80):
        for _ in range(steps):
            if not game.over():
                game.play(random_step(game, rng))
        found.append(game.save())
    return found


@pytest.mark.parametrize("name, players", GAMES)
def test_no_save_stops_the_board_it_is_kept_aside_and_a_new_game_starts(folder, name, players):
    keeper = Keeper(folder, name)
    refused = 0
    for state in saves(name, players):
        for bad in mutations(state):
            wipe(folder + SAVES[:-1])
            data = json.dumps({"steps": 0, "state": bad})
            storage.save(keeper.save_path, data)
            game, note = keeper.resume(new(name, players))  # never raises
            if game is not None:
                continue  # a save the rules accept resumes
            refused += 1
            assert note.startswith("the saved game could not be resumed ("), note
            assert note.endswith("; a new game started; the old save is kept as game-%s.sav.bad" % name), note
            # the save is out of the way, kept whole beside it, and a new game goes on from there
            assert storage.load(keeper.save_path)[0] is None
            with open(keeper.save_path + BAD, "rb") as f:
                assert storage.unpack(f.read()) == data.encode()
            keeper.begin(new(name, players))
            resumed, note = keeper.resume(new(name, players))
            assert note == "" and resumed.save() == new(name, players).save()
    assert refused > 100


def test_a_detour_save_with_half_a_pop_off_starts_a_new_game_and_keeps_the_save_and_record_aside(folder):
    keeper = Keeper(folder, "detour")
    game = new("detour")
    keeper.begin(game)
    play(keeper, game, 5, Rng(2))
    state = game.save()
    state["duel"] = [0]  # the pop-off's defender missing: refused, naming the field
    storage.save(keeper.save_path, json.dumps({"steps": 5, "state": state}))
    record = files(folder)[SAVES + "game-detour.jsonl"]
    resumed, note = keeper.resume(new("detour"))
    assert resumed is None
    assert note == ("the saved game could not be resumed (save: field 'duel' is not the two pieces on one space); "
                    "a new game started; the old save is kept as game-detour.sav.bad")
    assert sorted(files(folder)) == [SAVES + "game-detour.jsonl.bad", SAVES + "game-detour.sav.bad"]
    assert files(folder)[SAVES + "game-detour.jsonl.bad"] == record


def test_a_save_refused_for_a_reason_is_kept_aside_unread(folder):
    keeper = Keeper(folder, "mehen")
    game = new("mehen")
    keeper.begin(game)
    play(keeper, game, 3, Rng(1))
    resumed, note = keeper.resume(new("mehen"), "the board restarted 3 times in a row while playing it")
    assert resumed is None and note == ("the saved game could not be resumed (the board restarted 3 times in a row "
                                        "while playing it); a new game started; the old save is kept as "
                                        "game-mehen.sav.bad")
    assert storage.load(keeper.save_path)[0] is None
    with open(keeper.save_path + BAD, "rb") as f:
        assert json.loads(storage.unpack(f.read()))["state"] == game.save()


# ---- a power cut at any write ------------------------------------------------------------

@pytest.mark.parametrize("name, players", GAMES)
def test_a_power_cut_at_any_write_resumes_a_game_whose_record_replays_to_it(folder, name, players):
    """A step played, a new game begun over one in progress, a game kept in
    the old place taken over: the power cut after every write of each, and
    again after every write of the start-up that follows (it may have a
    record to cut back); then a start-up without a cut resumes the game as it
    was before or after, and its record replays to it exactly."""
    rng = Rng(3)
    game = new(name, players)
    old = Keeper(folder)  # where earlier firmware kept the game
    old.begin(game)
    play(old, game, 6, rng)
    legacy, in_old_place = files(folder), game.save()
    restore(folder, {})
    game = new(name, players)
    keeper = Keeper(folder, name)
    keeper.begin(game)
    play(keeper, game, 6, rng)
    step = random_step(game, rng)
    text = line(game, step)
    after = game.copy()
    after.play(step)

    def played():
        again = Keeper(folder, name)
        again.steps = keeper.steps
        again.played(text, after)

    now = files(folder)
    cases = check_every_cut(folder, name, players, now, played, (game.save(), after.save()))
    cases += check_every_cut(folder, name, players, now, lambda: Keeper(folder, name).begin(new(name, players)),
                             (game.save(), new(name, players).save()))
    cases += check_every_cut(folder, name, players, legacy, lambda: Keeper(folder, name).resume(new(name, players)),
                             (in_old_place,))
    assert cases > 100


def check_every_cut(folder, name, players, start, action, results):
    """Cut ``action()`` (from the files ``start``) after every write, then
    the start-up after every write, then start up; return the cases."""
    restore(folder, start)
    outcomes = list(every_cut(folder, name, new(name, players), action, results, range))
    assert [o for o in outcomes if o] == []
    return len(outcomes)


# ---- one game per board; the record read a line at a time ----------------------------

def test_each_board_keeps_its_own_game(folder):
    games = {}
    for name, players in GAMES:
        keeper = Keeper(folder, name)
        games[name] = new(name, players)
        keeper.begin(games[name])
        play(keeper, games[name], 4, Rng(7))
    assert {n for n in files(folder) if not n.endswith(storage.OLD)} == {
        SAVES + "game-%s.%s" % (name, end) for name, _ in GAMES for end in ("sav", "jsonl")}
    for name, players in GAMES:
        keeper = Keeper(folder, name)
        resumed, note = keeper.resume(new(name, players))
        assert note == "" and resumed.save() == games[name].save() == replayed(keeper.record_path)


def test_a_game_in_the_old_place_is_taken_over_once_by_its_own_board(folder):
    game = new("sniggle", 4)
    old = Keeper(folder)
    old.begin(game)
    play(old, game, 5, Rng(4))
    # another board leaves it be
    assert Keeper(folder, "detour").resume(new("detour")) == (None, "no save at %s%sgame-detour.sav" % (folder, SAVES))
    assert "game.sav" in files(folder) and "game.jsonl" in files(folder)
    keeper = Keeper(folder, "sniggle")
    resumed, note = keeper.resume(new("sniggle", 4))
    assert note == "" and resumed.save() == game.save() == replayed(keeper.record_path) and keeper.steps == 5
    assert not any(name.startswith("game.") for name in files(folder))
    play(keeper, resumed, 2, Rng(4))
    again = Keeper(folder, "sniggle")
    assert again.resume(new("sniggle", 4))[0].save() == resumed.save() and again.steps == 7


def test_a_game_its_board_kept_beside_the_code_is_copied_into_the_saves_folder(folder):
    game = new("mehen")
    old = Keeper(folder)
    old.begin(game)
    play(old, game, 3, Rng(6))
    for name in files(folder):  # as the board named them before they had a folder
        os.rename(folder + name, folder + name.replace("game.", "game-mehen."))
    keeper = Keeper(folder, "mehen")
    resumed, note = keeper.resume(new("mehen"))
    assert note == "" and resumed.save() == game.save() == replayed(keeper.record_path) and keeper.steps == 3
    assert sorted(files(folder)) == [SAVES + "game-mehen.jsonl", SAVES + "game-mehen.sav"]


def test_a_long_record_is_read_a_line_at_a_time(folder):
    # a record of 10,000 steps (a six-player Tiddlee Snuka game reaches about 1,500) with the
    # line of a step whose save a power cut stopped: cut back without holding it in memory
    game = new("snuka", 6)
    keeper = Keeper(folder, "snuka")
    keeper.begin(game)
    with open(keeper.record_path, "a") as f:
        for _ in range(10001):
            f.write('{"play": "flick"}\n')
    keeper.steps = 10000
    keeper._sync(game)  # the save only: the record's lines were written above
    size = os.path.getsize(keeper.record_path)
    tracemalloc.start()
    resumed, note = Keeper(folder, "snuka").resume(new("snuka", 6))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert resumed is not None and note == ""
    with open(keeper.record_path) as f:
        assert sum(1 for _ in f) == 10001
    assert peak < size / 4, (peak, size)


# ---- a save of newer firmware -------------------------------------------------------

def newer_saves(keeper, game):
    """(why it is newer, the file's bytes) of saves newer firmware could leave."""
    state = game.save()
    saved = {"version": 1, "steps": 0, "state": state}
    yield "save file format 2", storage.pack(json.dumps(saved)).replace(b"save1 ", b"save2 ", 1)
    yield "save version 2", storage.pack(json.dumps(dict(saved, version=2)))
    yield "fields 'undo'", storage.pack(json.dumps(dict(saved, undo=[1, 2])))
    yield "fields 'clock'", storage.pack(json.dumps(dict(saved, state=dict(state, clock=30))))


@pytest.mark.parametrize("name, players", GAMES)
def test_a_save_of_newer_firmware_is_kept_aside_untouched_and_never_overwritten(folder, name, players):
    keeper = Keeper(folder, name)
    kept = []
    for why, blob in newer_saves(keeper, new(name, players)):
        keeper.begin(new(name, players))
        with open(keeper.save_path, "wb") as f:
            f.write(blob)
        game, note = Keeper(folder, name).resume(new(name, players))
        ending = ".newer%s" % (len(kept) + 1 if kept else "")
        assert game is None and note == (
            "the saved game was made by newer firmware (%s; this firmware reads save version 1): it is kept "
            "untouched as game-%s.sav%s, and a new game started. To play it on, flash the firmware that saved it"
            % (why, name, ending))
        kept.append((SAVES + "game-%s.sav%s" % (name, ending), blob))
        now = files(folder)
        assert all(now[path] == blob for path, blob in kept)
        assert SAVES + "game-%s.jsonl%s" % (name, ending) in now and SAVES + "game-%s.sav" % name not in now


def test_a_save_of_this_version_or_of_earlier_firmware_resumes(folder):
    keeper = Keeper(folder, "mehen")
    game = new("mehen")
    keeper.begin(game)
    for saved in ({"version": 1, "steps": 0, "state": game.save()}, {"steps": 0, "state": game.save()}):
        storage.save(keeper.save_path, json.dumps(saved))
        resumed, note = Keeper(folder, "mehen").resume(new("mehen"))
        assert resumed.save() == game.save() and note == ""
    storage.save(keeper.save_path, json.dumps({"version": "2", "steps": 0, "state": game.save()}))
    assert "field 'version' is '2'" in Keeper(folder, "mehen").resume(new("mehen"))[1]


def test_a_flash_full_for_longer_than_ram_keeps_stops_the_record_short_and_says_so(folder):
    from app.keeper import BEHIND
    from host.rig import Full, powered

    logged = []
    keeper = Keeper(folder, "snuka", log=logged.append)
    game = new("snuka", 6)  # a frame of six players: far longer than the steps played here
    keeper.begin(game)
    flash = Full(0)  # full from the first write on
    powered(lambda: play(keeper, game, BEHIND + 5, Rng(3)), flash)
    flash.steps = -1
    powered(lambda: play(keeper, game, 1, Rng(4)), flash)
    assert not game.over() and keeper.steps == BEHIND + 6
    assert logged[1] == "the record stops at step %d: no more lines wait in RAM for the flash; the save goes on" % BEHIND
    assert json.loads(storage.load(keeper.save_path)[0])["state"] == game.save()
    with open(keeper.record_path) as f:
        assert len(f.read().splitlines()) == BEHIND + 1  # the header and the lines kept: a record that stops short
    resumed, note = Keeper(folder, "snuka").resume(new("snuka", 6))
    assert resumed.save() == game.save() and note == "the record misses 6 steps"
