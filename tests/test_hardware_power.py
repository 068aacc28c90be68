"""The supply path simulated with ngspice (host/hardware/power.py): plugging into USB with the
soft start keeps the inrush within USB's limits, and a bit sent by the 74AHCT125
through the 470 ohm reaches the first pixel within the WS2812B's timing."""

import os

import pytest

from host.hardware import power
from host.hardware.fields import read_parts

if power.NGSPICE is None:
    why = "ngspice is not on the PATH: install it (Debian, Ubuntu: sudo apt install ngspice)"
    if os.environ.get("CI"):
        pytest.fail("the power-path simulations must run in CI, but " + why, pytrace=False)
    pytest.skip(why, allow_module_level=True)

PARTS = read_parts()
POWER = PARTS["power"]
LIMITS = POWER["limits"]
PIXELS = power.largest_chain(PARTS)


@pytest.mark.parametrize("vth", POWER["soft_start"]["vth_V"])
def test_plugging_in_stays_within_usbs_inrush_and_the_rail_comes_up(vth):
    r = power.plug_in(POWER, PIXELS, vth)
    assert r["peak_A"] <= LIMITS["peak_A"], r
    assert r["charge_uC"] <= LIMITS["charge_1ms_uC"], r
    assert r["ramp_ms"] < 200 and r["rail_V"] > 4.75, r


@pytest.mark.parametrize("change", [{"c_gate_source_nF": 0}, {"c_gate_drain_nF": 2.2}, power.EARLIER],
                         ids=["without the gate-source capacitor", "a tenth of the gate-drain capacitor",
                              "the earlier values"])
def test_a_soft_start_value_changed_lets_the_inrush_through(change):
    r = power.plug_in(POWER, PIXELS, POWER["soft_start"]["vth_V"][1], dict(POWER["soft_start"], **change))
    assert r["peak_A"] > LIMITS["peak_A"], r


def worst_error(values):
    r = power.data_line(values)
    return max(abs(r["above_vih_ns"] - r["sent_ns"]), abs(r["above_vil_ns"] - r["sent_ns"]))


def test_a_bit_reaches_the_first_pixel_within_its_timing_with_margin():
    assert power.data_line(POWER)["top_V"] > POWER["data"]["vih"] * POWER["vbus_V"]
    assert worst_error(POWER) * PARTS["margin"] <= POWER["data"]["tolerance_ns"]


def test_a_ten_times_larger_series_resistor_spoils_the_bits():
    slow = dict(POWER, data=dict(POWER["data"], series_ohm=10 * POWER["data"]["series_ohm"]))
    assert worst_error(slow) > POWER["data"]["tolerance_ns"]
