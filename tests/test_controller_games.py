"""Whole games of every game played on the simulated board through the
controller, the way people play them: die presses, pieces lifted and put
down, wheels turned, buttons for what the sensors cannot see. Every game
ends, the record on the device replays to the same game, and no frame
draws more than the current budget."""

import os

import pytest

from app.keeper import Keeper
from host.rig import Rig
from test_controller_saving import Dice
from rules.games import new_game
from rules.players import RandomPlayer
from rules.playout import Rng
from rules.record import replay
from support import board_data

pytestmark = pytest.mark.slow

SETUPS = (("detour", 2, {}), ("detour", 3, {"half_turns": True, "wheel_turn_optional": True}),
          ("sniggle", 3, {}), ("mehen", 2, {"hunt": True}), ("mehen", 4, {}), ("snuka", 3, {}))
STEP_LIMIT = 3000


@pytest.mark.parametrize("name,players,options", SETUPS)
def test_a_whole_game_on_the_board(tmp_path, name, players, options):
    game = new_game(name, board_data(name), players, options)
    keeper = Keeper(str(tmp_path) + os.sep)
    keeper.begin(game)
    rig = Rig(game, Dice(len(name) * players), keeper=keeper)
    bot = RandomPlayer(Rng(len(name) + players))
    pixels = rig.ctl.ports.pixels
    highest = 0
    for _ in range(STEP_LIMIT):
        if rig.game.over():
            break
        before = rig.game.save()
        rig.act(None if rig.game.is_chance() else bot.choose(rig.game))
        assert rig.game.save() != before  # every step was taken
        assert not rig.snap.disagrees
        highest = max(highest, pixels.draw_ma)
    assert rig.game.over()
    assert 0 < highest <= pixels.budget_ma
    assert rig.ctl.faults == 0
    with open(keeper.record_path) as f:
        assert replay(f, board_data).save() == rig.game.save()
