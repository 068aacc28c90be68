"""The pin map a maker edits: the shipped one loads, every mistake is named,
and a board's inputs find the pins they need at start-up."""

from app.startup import ConfigError, check_inputs
from hal.pins import BEAMS, PinError, load_pins
from rules.games import new_game
from support import board_data, data_file, raises


def shipped():
    return data_file("hardware", "pins")


def refused(data):
    return str(raises(PinError, load_pins, data))


def test_the_shipped_pin_map_loads():
    pins = load_pins(shipped())
    assert pins["pixels"] == 2 and pins["die1"] != pins["die2"]
    assert len(set(pins.values())) == len(pins)
    assert [pins[role] for role in BEAMS] == [18, 19, 20, 21, 22, 26]


def test_a_pin_used_twice_names_both_roles():
    data = shipped()
    data["die2"] = data["die1"]
    message = refused(data)
    assert "'die1'" in message and "'die2'" in message and "GP3" in message


def test_a_pin_the_header_does_not_have_is_refused():
    for bad in (23, 25, 29, -1, 40, "3", True):
        data = shipped()
        data["pixels"] = bad
        assert "'pixels'" in refused(data)


def test_a_misspelt_or_missing_role_is_named():
    data = shipped()
    data["dice1"] = data.pop("die1")
    assert "'dice1'" in refused(data)
    data = shipped()
    del data["die1"]
    assert "'die1' is missing" in refused(data)


def test_half_a_group_is_refused():
    data = shipped()
    del data["wheel3_b"]
    assert "wheel3_b" in refused(data)
    data = shipped()
    del data["sensor_data"]
    assert "sensor_data" in refused(data)
    data = shipped()
    del data["beam4"]
    assert "'beam1' needs 'beam4' too" in refused(data)


def test_a_board_without_wheels_or_sensors_needs_only_the_basics():
    assert load_pins({"pixels": 0, "die1": 1, "die2": 26}) == {"pixels": 0, "die1": 1, "die2": 26}
    assert "JSON object" in refused([2, 3])


def config(board, input="sensors"):
    return {"board": board, "pins": "hardware/pins.json", "input": input}


def without(*roles):
    data = shipped()
    for role in roles:
        del data[role]
    return load_pins(data)


def test_a_snuka_board_reads_its_pockets_on_the_beam_roles():
    game = new_game("snuka", board_data("snuka"), 2)
    message = str(raises(ConfigError, check_inputs, game, without(*BEAMS), config("snuka")))
    assert message == ("hardware/pins.json: roles 'beam1', 'beam2', 'beam3', 'beam4', 'beam5', 'beam6' are missing: "
                       "config.json's input \"sensors\" reads the pocket beams of board 'snuka' on them "
                       "(or set input to \"buttons\")")
    # the 74HC165 chain it does not read; button mode reads neither
    check_inputs(game, without("sensor_latch", "sensor_clock", "sensor_data"), config("snuka"))
    check_inputs(game, without(*BEAMS), config("snuka", "buttons"))


def test_a_board_with_piece_sensors_needs_the_chain_not_the_beams():
    game = new_game("detour", board_data("detour"), 2)
    message = str(raises(ConfigError, check_inputs, game, without("sensor_latch", "sensor_clock", "sensor_data"),
                         config("detour")))
    assert message.startswith("hardware/pins.json: role 'sensor_latch' is missing: config.json's input \"sensors\"")
    check_inputs(game, without(*BEAMS), config("detour"))
