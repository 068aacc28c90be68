"""Never lost: the controller saves after every step; a power cut between
any two steps resumes the last applied one, and the record on the device
replays to the same game."""

from app import colours as C
from app.keeper import BAD, Keeper
from hal import storage
from host.rig import Full, Rig, powered
from rules.games import new_game
from rules.players import RandomPlayer
from rules.playout import Rng
from rules.record import line, replay
from support import board_data, done, fresh

STEPS = 24  # of a Detour game: rolls, moves, a pop-off or a wheel turn among them


class Dice:
    """A seeded urandom, the same on both interpreters."""

    def __init__(self, seed):
        self.rng = Rng(seed)

    def __call__(self, n):
        return bytes(self.rng.below(256) for _ in range(n))


def detour():
    return new_game("detour", board_data("detour"), 2)


def test_a_power_cut_between_any_two_steps_resumes_the_last_applied_step():
    folder = fresh()
    keeper = Keeper(folder + "/")
    game = detour()
    keeper.begin(game)
    rig = Rig(game, Dice(7), keeper=keeper)
    bot = RandomPlayer(Rng(7))
    for _ in range(STEPS):
        rig.act(None if rig.game.is_chance() else bot.choose(rig.game))
        # the power goes: a new controller starts from what is on the flash
        resumed, note = Keeper(folder + "/").resume(detour())
        assert note == "", note
        assert resumed is not None and resumed.save() == rig.game.save()
    with open(keeper.record_path) as f:
        assert replay(f, lambda name: board_data(name)).save() == rig.game.save()
    done(folder)


def test_a_cut_after_the_record_line_but_before_the_save_drops_that_line():
    folder = fresh()
    keeper = Keeper(folder + "/")
    game = detour()
    keeper.begin(game)
    game.play((3, 5))
    keeper.played({"roll": "3,5"}, game)
    with open(keeper.record_path, "a") as f:
        f.write('{"play": "a3"}\n')  # the line of a step whose save never happened
    resumed, note = Keeper(folder + "/").resume(detour())
    assert resumed is not None and resumed.save() == game.save() and note == ""
    with open(keeper.record_path) as f:
        assert replay(f, lambda name: board_data(name)).save() == game.save()
    done(folder)


def test_steps_played_at_once_are_saved_as_one_and_a_cut_before_leaves_the_step_before():
    # a throw waits for the dice to settle; a step played meanwhile is saved with it. Saved at the
    # throw's line, the game (which holds the step too) would be a step ahead of the record's count
    folder = fresh()
    keeper = Keeper(folder + "/")
    game = detour()
    keeper.begin(game)
    before = game.save()
    lines = []
    for step in ((3, 5), None):
        step = step or game.legal()[0]
        lines.append(line(game, step))
        game.play(step)
    keeper.played(lines[0], game, last=False)
    resumed, note = Keeper(folder + "/").resume(detour())  # the power went before the last
    assert note == "" and resumed.save() == before
    keeper.played(lines[1], game)
    resumed, note = Keeper(folder + "/").resume(detour())
    assert note == "" and resumed.save() == game.save()
    with open(keeper.record_path) as f:
        assert replay(f, lambda name: board_data(name)).save() == game.save()
    done(folder)


def test_a_corrupt_save_starts_a_new_game_with_a_message_not_a_crash():
    folder = fresh()
    keeper = Keeper(folder + "/")
    storage.save(keeper.save_path, '{"steps": 1, "state": {"game": "detour", "phase": 9}}')
    resumed, note = keeper.resume(detour())
    assert resumed is None and note == ("the saved game could not be resumed (save: field 'players' is missing); "
                                        "a new game started; the old save is kept as game.sav.bad")
    # kept aside, where it is out of the way of the new game's save
    assert storage.load(keeper.save_path)[0] is None
    assert storage.unpack(open(keeper.save_path + BAD, "rb").read()).startswith(b'{"steps": 1')
    with open(keeper.save_path, "wb") as f:
        f.write(b"save1 5 00000000\nhello")
    resumed, note = keeper.resume(detour())
    assert resumed is None and note.endswith("game.sav: checksum mismatch; no good copy left"), note
    done(folder)


def test_a_save_of_another_game_is_not_resumed():
    folder = fresh()
    keeper = Keeper(folder + "/")
    keeper.begin(new_game("mehen", board_data("mehen"), 2))
    resumed, note = Keeper(folder + "/").resume(detour())
    assert resumed is None and "mehen" in note
    done(folder)


def _replayed(keeper):
    with open(keeper.record_path) as f:
        return replay(f, lambda name: board_data(name)).save()


def test_a_full_flash_keeps_the_game_in_ram_shows_it_once_and_the_next_write_catches_up():
    folder = fresh()
    logged = []
    keeper = Keeper(folder + "/", "detour", log=logged.append)
    game = detour()
    keeper.begin(game)
    rig = Rig(game, Dice(3), keeper=keeper)
    bot = RandomPlayer(Rng(3))

    def step():
        rig.act(None if rig.game.is_chance() else bot.choose(rig.game))

    for _ in range(3):
        step()
    flash = Full(7)  # the next write stops after 7 bytes: half a record line on the flash
    for _ in range(6):
        powered(step, flash)
    assert keeper.failing == "OSError: 28" and keeper.steps == 9
    assert len(logged) == 1 and "the game goes on in RAM" in logged[0]
    rig.run(2 * C.SLOW_MS)  # the first pixel blinks magenta
    frames = set()
    for _ in range(4):
        rig.run(C.SLOW_MS // 2)
        frames.add(bytes(rig.ctl.ports.pixels.frame[:3]))
    assert bytes(C.UNSAVED) in frames and len(frames) == 2
    flash.steps = -1  # room made on the flash
    powered(step, flash)
    assert keeper.failing == "" and logged[1] == "the flash took the game again: saved at step 10"
    assert _replayed(keeper) == rig.game.save()
    resumed, note = Keeper(folder + "/", "detour").resume(detour())
    assert note == "" and resumed.save() == rig.game.save()
    done(folder)


def test_a_torn_record_line_is_cut_away_on_resume_and_the_console_says_so():
    folder = fresh()
    keeper = Keeper(folder + "/", "detour", log=lambda text: None)
    game = detour()
    keeper.begin(game)
    rig = Rig(game, Dice(5), keeper=keeper)
    bot = RandomPlayer(Rng(5))
    for _ in range(4):
        rig.act(None if rig.game.is_chance() else bot.choose(rig.game))
    saved = rig.game.save()
    flash = Full(9)
    powered(lambda: rig.act(None if rig.game.is_chance() else bot.choose(rig.game)), flash)
    # the power goes with the flash still full: half a line at the record's end
    with open(keeper.record_path, "rb") as f:
        assert not f.read().endswith(b"\n")
    resumed, note = Keeper(folder + "/", "detour").resume(detour())
    assert resumed.save() == saved
    assert note == "the record was cut back to 5 lines: its line 6 is cut short"
    assert _replayed(keeper) == saved
    done(folder)
