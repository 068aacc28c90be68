"""The game registry."""

from rules.core import RulesError
from rules.detour import Detour
from rules.games import GAMES, find_game, new_game
from support import board_data, raises


def test_games_are_found_by_name():
    assert "detour" in GAMES
    assert find_game("detour") is Detour
    assert new_game("detour", board_data("detour"), 3).players == 3


def test_an_unknown_game_is_refused_with_the_known_names():
    message = str(raises(RulesError, find_game, "chess"))
    assert "chess" in message and "detour" in message


def test_a_game_keeps_its_own_options():
    # a caller changing the dict it gave, or the one a save hands out, changes nothing in the game
    for name, options in (("detour", {"first_player": 2}), ("sniggle", {"larger_die": True}),
                          ("mehen", {"first_player": 2}), ("snuka", {"first_player": 2})):
        game = new_game(name, board_data(name), 2, options)
        kept = dict(game.options)
        options["first_player"] = 1
        saved = game.save()
        saved["options"]["first_player"] = 1
        assert game.options == kept, name
        assert game.save()["options"] == kept, name
        assert game.copy().options == kept, name
