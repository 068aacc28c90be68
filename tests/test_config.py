"""The start-up files as the Pico reads them: config.json, the pin map and the
board file, from a folder laid out as the Pico's filesystem (the build's)."""

import json
import shutil
import sys
import types
from pathlib import Path

import pytest

from app import startup
from hal.pixels import BLUE_MA, GREEN_MA, IDLE_MA, RED_MA, budget_range
from host.fuzz import configs

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


@pytest.fixture
def machine(monkeypatch):
    """A fake ``machine`` module at the pins: the bytes bitstream would put on the data pin."""
    sent = []
    fake = types.ModuleType("machine")

    class Pin:
        IN, OUT, PULL_UP = 0, 1, 2

        def __init__(self, gpio, mode, pull=None, value=None):
            self.gpio = gpio

        def value(self):
            return 1  # released buttons read high through their pull-ups

    fake.Pin = Pin
    fake.SoftSPI = None  # the sensor chain's, unused with "input": "buttons"
    fake.bitstream = lambda pin, encoding, timing, buf: sent.append(bytes(buf))
    monkeypatch.setitem(sys.modules, "machine", fake)
    return sent


def drawn(wire):
    """mA the pixels draw for these wire bytes (G, R, B), by the same model as hardware/power.md."""
    total = 0
    for i in range(0, len(wire), 3):
        g, r, b = wire[i:i + 3]
        total += IDLE_MA * 255 + r * RED_MA + g * GREEN_MA + b * BLUE_MA
    return total / 255


@pytest.mark.parametrize("led_ma", (None, 1800))
def test_the_budget_in_config_json_is_the_one_the_pixels_keep(tmp_path, machine, led_ma):
    config = {"board": "sniggle", "input": "buttons"}
    if led_ma is not None:
        config["led_ma"] = led_ma
    config, pins, game = started(pico(tmp_path, config))
    pixels = startup.ports(game, pins, config, 0).pixels
    pixels.fill(255, 255, 255)  # every pixel white: far more than any supply here gives
    pixels.show()
    budget = led_ma or 450
    assert budget * 0.8 < drawn(machine[-1]) <= budget  # (a wire byte is a whole step: the draw rounds down)


def test_budgets_run_from_the_idle_draw_to_the_largest_supply():
    low, high = budget_range(195)
    assert low == 195 * IDLE_MA + RED_MA + GREEN_MA + BLUE_MA and high == 2950


def test_the_configs_campaign_finds_nothing_in_a_small_sample():
    assert configs.run(400, seed=3) == "configs: 400 mutated, 0 tracebacks, 0 unnamed"
