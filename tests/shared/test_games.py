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
