"""The pin map a maker edits: the shipped one loads, every mistake is named."""

from hal.pins import PinError, load_pins
from support import data_file, raises


def shipped():
    return data_file("hardware", "pins")


def refused(data):
    return str(raises(PinError, load_pins, data))


def test_the_shipped_pin_map_loads():
    pins = load_pins(shipped())
    assert pins["pixels"] == 2 and pins["die1"] != pins["die2"]
    assert len(set(pins.values())) == len(pins)


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


def test_a_board_without_wheels_or_sensors_needs_only_the_basics():
    assert load_pins({"pixels": 0, "die1": 1, "die2": 26}) == {"pixels": 0, "die1": 1, "die2": 26}
    assert "JSON object" in refused([2, 3])
