"""The start-up files as the Pico reads them: config.json, the pin map and the
board file, from a folder laid out as the Pico's filesystem (the build's)."""

import json
import shutil
from pathlib import Path

import pytest

from hal.beams import BEAM_MA
from hal.pins import BEAMS
from test_vpico import build_dir, image, shows  # noqa: F401  (build_dir: the fixture)

from app import startup
from hal.pixels import BLUE_MA, GREEN_MA, IDLE_MA, RED_MA, budget_range
from host.pico.vpico import VirtualPico
from host.rig import Bytes, Rig
from rules.games import new_game

ROOT = Path(__file__).resolve().parent.parent
BOARDS = ("detour", "sniggle", "mehen", "snuka")


def pico(tmp_path, config, pins=None):
    """A Pico's filesystem with the real boards and pin map, and ``config``
    (a dict, or the bytes of a broken file); its root as startup takes it."""
    shutil.copytree(ROOT / "boards", tmp_path / "boards", ignore=shutil.ignore_patterns("*.md"))
    shutil.copytree(ROOT / "hardware", tmp_path / "hardware", ignore=shutil.ignore_patterns("*.md"))
    if pins is not None:
        (tmp_path / "hardware" / "pins.json").write_text(json.dumps(pins))
    (tmp_path / "config.json").write_bytes(config if isinstance(config, bytes) else json.dumps(config).encode())
    return "%s/" % tmp_path


def started(root):
    """config, pin map and game, read as start() reads them."""
    config = startup.read_config(root)
    pins = startup.read_pins(config, root)
    return config, pins, startup.new_game(config, root)


@pytest.mark.parametrize("board", BOARDS)
def test_every_board_starts_with_only_its_name_and_the_usb_budget(tmp_path, board):
    config, pins, game = started(pico(tmp_path, {"board": board}))
    assert game.name == board and game.players == 2 and pins["pixels"] == 2
    assert config["led_ma"] == 450  # hardware/power.md: a 500 mA USB port less 50 mA for the Pico


@pytest.mark.parametrize("config, message", [
    ({"board": "detour", "pins": ""},
     "config.json: field 'pins' is ''; name the pin map's file, such as \"hardware/pins.json\""),
    ({"board": "detour", "pins": "hardware/mine.json"},
     "hardware/mine.json: the file is missing (config.json's field 'pins' names it"),
    ({"board": "../config"}, "config.json: field 'board' is '../config'; the boards on this Pico: detour, mehen, sniggle, snuka"),
    ({"board": "chess"}, "boards/chess.json: the file is missing (config.json's field 'board' names it"),
    ({"board": "detour", "players": 7}, "config.json: field 'players': Detour is for 2 to 4 players"),
    ({"board": "sniggle", "options": {"pieces": 4}}, "config.json: field 'options': unknown option 'pieces'"),
    ({"board": "detour", "options": {"first_player": 3}}, "config.json: field 'options': option 'first_player' must be"),
    ({"board": "detour", "led_ma": "lots"}, "config.json: field 'led_ma' must be int"),
    ({"board": "sniggle", "led_ma": 200},
     "config.json: field 'led_ma' is 200; the 195 pixels of board 'sniggle' take 237 to 2950 mA (hardware/power.md)"),
    ({"board": "mehen", "led_ma": 5000}, "config.json: field 'led_ma' is 5000; the 39 pixels of board 'mehen' take"),
    ({"board": "detour", "colour": "red"}, "config.json: unknown field 'colour' (known: board, pins, input, players"),
    (b"[" * 100000 + b"]" * 100000, "config.json: not valid JSON"),
    (b'{"board": "d\xe9tour"}', "config.json: not valid JSON"),
    (b'["detour"]', "config.json: must be a JSON object"),
])
def test_a_mistake_names_the_file_and_the_field(tmp_path, config, message):
    with pytest.raises(startup.ConfigError) as err:
        started(pico(tmp_path, config))
    assert str(err.value).startswith(message), str(err.value)


def test_a_pin_map_mistake_names_the_pin_map_and_the_role(tmp_path):
    pins = json.loads((ROOT / "hardware" / "pins.json").read_text())
    del pins["sensor_clock"]
    with pytest.raises(startup.ConfigError) as err:
        started(pico(tmp_path, {"board": "detour"}, pins))
    assert str(err.value) == "hardware/pins.json: pin map: 'sensor_latch' needs 'sensor_clock' too"


@pytest.mark.pico
def test_the_budget_in_config_json_is_the_one_the_pico_lights_within(build_dir, tmp_path):
    """On the emulated Pico: Tiddlee Snuka's first picture draws 170 to 270 mA by
    the model as it breathes; with "led_ma": 260, less the pocket beams' 138 mA,
    the Pico sends it scaled down to 122 mA."""
    game = new_game("snuka", json.loads((ROOT / "boards" / "snuka.json").read_text()), 2)
    with VirtualPico(image(build_dir, tmp_path, "snuka", config={"led_ma": 260}), board="snuka") as pico:
        first = pico.wait_frame(0)
    assert first is not None and not first["errors"], first
    rig = Rig(game, Bytes([0]))
    assert not shows(first, rig)  # not the picture at the usual 450 mA: that one draws more
    rig.ctl.ports.pixels.budget_ma = 260 - BEAM_MA * len(BEAMS)
    assert shows(first, rig)


def test_budgets_run_from_the_idle_draw_to_the_largest_supply():
    low, high = budget_range(195)
    assert low == 195 * IDLE_MA + RED_MA + GREEN_MA + BLUE_MA and high == 2950


def test_a_saved_game_for_other_settings_goes_on_as_saved_and_the_start_up_says_which_wins():
    board = json.loads((ROOT / "boards" / "detour.json").read_text())
    saved = new_game("detour", board, 4, {"half_turns": True})
    fresh = new_game("detour", board, 2)
    assert startup.settings_differ(saved, fresh) == (
        "the saved game differs from config.json (4 players, config.json 2; option half_turns=true, config.json false): "
        "it goes on as it was saved; a new game (hold button 2) takes config.json's settings")
    assert startup.settings_differ(new_game("detour", board, 2), fresh) == ""
    rig = Rig(saved, Bytes([0]))
    rig.ctl.settings = (fresh.players, fresh.options)  # as start() makes the controller
    rig.ctl.new_game()
    rig.run(rig.STEP_MS)  # the tick that publishes it
    assert rig.game.players == 2 and rig.game.options == fresh.options
