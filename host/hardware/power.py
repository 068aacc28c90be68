"""The supply path simulated with ngspice, from the values in hardware/parts.json.

Two circuits: plugging the board into USB (the cable, the soft start, the
pixels' 1000 uF and their idle draw, the Pico beside them), and the pixel data
line (the 74AHCT125's output, the 470 ohm, the wire and the first pixel's DIN).
``python -m host.hardware.power`` (part of ``make hardware``) prints the figures; the
tests hold them to the limits in parts.json.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

from host.hardware.fields import read_parts
from host.boardfile import read_board

NGSPICE = shutil.which("ngspice")
# the soft start as first drawn: 100 nF from gate to drain alone holds the gate at 0 V at plug-in
EARLIER = {"r_gate_gnd_ohm": 100e3, "r_gate_source_ohm": 1e6, "c_gate_drain_nF": 100, "c_gate_source_nF": 0}


class NoSpice(RuntimeError):
    pass


def run(netlist):
    """Run ``netlist`` in ngspice's batch mode: its ``.meas`` results by name."""
    if NGSPICE is None:
        raise NoSpice("ngspice is not on the PATH (Debian, Ubuntu: sudo apt install ngspice)")
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "circuit.cir")
        with open(path, "w") as f:
            f.write(netlist)
        out = subprocess.run([NGSPICE, "-b", path], capture_output=True, text=True, timeout=60, cwd=folder)
    found = dict(re.findall(r"^(\w+)\s*=\s*([-+0-9.eE]+)", out.stdout, re.M))
    if out.returncode or not found:
        raise RuntimeError("ngspice failed:\n%s%s" % (out.stdout[-2000:], out.stderr[-2000:]))
    return {k: float(v) for k, v in found.items()}


def mosfet_model(ss, vth):
    """A level-1 P-channel model of the soft start's MOSFET: its threshold, and a gain that
    gives the datasheet's on-resistance at its gate voltage."""
    kp = 1 / (ss["rds_on_ohm"] * (abs(ss["rds_on_at_V"]) - abs(vth)))
    return ".model PSS PMOS (LEVEL=1 VTO=%g KP=%g)\n.model DBODY D\n" % (vth, kp)


def plug_in(power, pixels, vth, ss=None):
    """Plugging in with ``pixels`` dark on the rail: peak cable current (A), charge through the
    soft start in the first ms (uC), time for the rail to reach 90 % (ms), the rail at the end (V).
    ``ss``: the soft start's values, those of parts.json if left out."""
    p = power
    ss = ss or power["soft_start"]
    gate = "RGG g 0 %g\nRGS g src %g\nCGD g rail %gn\n" % (
        ss["r_gate_gnd_ohm"], ss["r_gate_source_ohm"], ss["c_gate_drain_nF"])
    if ss["c_gate_source_nF"]:
        gate += "CGS g src %gn\n" % ss["c_gate_source_nF"]
    netlist = """plug-in
VBUS bus 0 PWL(0 0 {rise}u {v})
VCABLE bus b1 0
RCABLE b1 b2 {rc}
LCABLE b2 vin {lc}u
RPICO vin 0 {rpico}
VM vin src 0
M1 rail g src src PSS
D1 rail src DBODY
{model}{gate}CBULK rail esr {bulk}u
RESR esr 0 {esr}
RPIX rail 0 {rpix}
.tran 20u 300m uic
.meas tran peak MAX i(VCABLE)
.meas tran charge INTEG i(VM) from=0 to=1m
.meas tran ramp WHEN v(rail)={v90} RISE=1
.meas tran rail FIND v(rail) AT=300m
.end
""".format(rise=p["vbus_rise_us"], v=p["vbus_V"], rc=p["cable_ohm"], lc=p["cable_uH"],
           rpico=p["vbus_V"] / (p["pico_mA"] * 1e-3), model=mosfet_model(ss, vth), gate=gate,
           bulk=p["bulk_uF"], esr=p["bulk_esr_ohm"], rpix=p["vbus_V"] / (pixels * p["pixel_idle_mA"] * 1e-3),
           v90=0.9 * p["vbus_V"])
    m = run(netlist)
    return {"peak_A": m["peak"], "charge_uC": m["charge"] * 1e6, "ramp_ms": m["ramp"] * 1e3, "rail_V": m["rail"]}


def data_line(power):
    """A 0 bit from the 74AHCT125 to DIN: how long DIN stays above VIH and above VIL (ns),
    against the bit's high time at the driver."""
    d, v = power["data"], power["vbus_V"]
    netlist = """data line
VDRV d0 0 PULSE(0 {v} 100n {edge}n {edge}n {t0h}n 1250n)
RDRV d0 d1 {rd}
RSER d1 din {rs}
CDIN din 0 {c}p
.tran 0.1n 1.3u
.meas tran up_hi WHEN v(din)={vih} RISE=1
.meas tran down_hi WHEN v(din)={vih} FALL=1
.meas tran up_lo WHEN v(din)={vil} RISE=1
.meas tran down_lo WHEN v(din)={vil} FALL=1
.meas tran up_src WHEN v(d0)={half} RISE=1
.meas tran down_src WHEN v(d0)={half} FALL=1
.meas tran top MAX v(din)
.end
""".format(v=v, edge=d["edge_ns"], t0h=d["t0h_ns"], rd=d["driver_ohm"], rs=d["series_ohm"],
           c=d["wire_pF"] + d["din_pF"], vih=d["vih"] * v, vil=d["vil"] * v, half=v / 2)
    m = run(netlist)

    def above(level):  # 0 when DIN never gets there
        up, down = m.get("up_" + level), m.get("down_" + level)
        return (down - up) * 1e9 if up is not None and down is not None else 0.0

    return {"sent_ns": (m["down_src"] - m["up_src"]) * 1e9, "above_vih_ns": above("hi"),
            "above_vil_ns": above("lo"), "top_V": m["top"]}


def largest_chain(parts):
    """The most pixels any board lights from one rail (their idle draw is the rail's load)."""
    return max(read_board(name)["pixels"] for name in parts["boards"])


def main():
    parts = read_parts()
    power = parts["power"]
    limits = power["limits"]
    pixels = largest_chain(parts)
    bad = 0
    print("USB plug-in, %d dark pixels (%d mA) and the Pico (%d mA), a %g ohm cable:"
          % (pixels, pixels * power["pixel_idle_mA"], power["pico_mA"], power["cable_ohm"]))
    ss = power["soft_start"]
    for label, values, vths in (("earlier values", EARLIER, ss["vth_V"][1:2]), ("soft start", ss, ss["vth_V"])):
        for vth in vths:
            r = plug_in(power, pixels, vth, dict(ss, **values))
            ok = r["peak_A"] <= limits["peak_A"] and r["charge_uC"] <= limits["charge_1ms_uC"]
            bad += values is ss and not ok
            print("  %-14s Vth %5.2f V: peak %6.3f A, %8.2f uC in the first ms, 90 %% in %6.1f ms, rail %.2f V%s"
                  % (label, vth, r["peak_A"], r["charge_uC"], r["ramp_ms"], r["rail_V"],
                     "" if ok else "   OVER %g A or %g uC" % (limits["peak_A"], limits["charge_1ms_uC"])))
    d = power["data"]
    r = data_line(power)
    worst = max(abs(r["above_vih_ns"] - r["sent_ns"]), abs(r["above_vil_ns"] - r["sent_ns"]))
    bad += worst * parts["margin"] > d["tolerance_ns"]
    print("Data line, %s (%d ohm) through %d ohm, %d pF to DIN: a %d ns high arrives as %.0f ns above VIH, "
          "%.0f ns above VIL, peak %.2f V: off by %.0f ns of the %d allowed"
          % (d["driver"], d["driver_ohm"], d["series_ohm"], d["wire_pF"] + d["din_pF"], r["sent_ns"],
             r["above_vih_ns"], r["above_vil_ns"], r["top_V"], worst, d["tolerance_ns"]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
