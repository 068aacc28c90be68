"""make calibrate (host/pico/vpico/calibrate.py): what can be checked without the
two firmware builds it compares. The gains and the table from a record, the
table in hardware/calibration.md against the record it was made from, the
map of addresses to functions, what it says when a build is missing, and
its runner timing a program by the emulated Pico's own clock."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from host.pico.vpico import MissingPicoFiles, flash, pico_files
from host.pico.vpico import calibrate as c

pytestmark = pytest.mark.pico

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "hardware" / "calibration.md"


def test_a_gain_is_the_plain_time_over_the_sram_time_less_one():
    got = c.gains({"bm_chaos": 125, "misc_aes": 100}, {"bm_chaos": 100, "misc_aes": 125})
    assert got == pytest.approx({"bm_chaos": 25.0, "misc_aes": -20.0})


def test_the_table_sets_each_gain_beside_upstreams_with_the_error_and_the_means():
    lines = c.table({"bm_chaos": 1300, "misc_aes": 1000}, {"bm_chaos": 1000, "misc_aes": 1000})
    assert lines[2] == "| bm_chaos | 1300 | 1000 | +30.0 % | +28.9 % | +1.1 |"
    assert lines[3] == "| misc_aes | 1000 | 1000 | +0.0 % | +3.1 % | -3.1 |"
    assert lines[4] == "| mean | | | +15.0 % | +16.0 % | -1.0 |"
    assert lines[5].endswith("mean absolute error 2.1 points over 2 benchmarks")


@pytest.mark.parametrize("printed", ["-1 -1 SKIP: no matching params", "Traceback (most recent call last):", ""])
def test_a_skipped_or_failed_benchmark_gives_no_figure(printed):
    with pytest.raises(c.CalibrationError, match="no time|skipped"):
        c.parse(printed)


@pytest.mark.parametrize("record", ["calibration.json", "calibration-pico-w.json"])
def test_the_documented_table_is_the_one_its_record_gives(record):
    path = ROOT / "hardware" / record
    out = subprocess.run([sys.executable, "-m", "host.pico.vpico.calibrate", "--from-record", str(path)],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    table = [line for line in out.splitlines() if line.startswith("|")]
    assert len(table) == 2 + len(c.UPSTREAM) + 1
    doc = DOC.read_text()
    for line in table[2:]:
        assert line in doc, line
    assert json.loads(path.read_text())["n"] == 100


def test_misses_are_charged_to_the_function_of_the_map_that_holds_them_in_any_alias():
    map_text = (" .text.mp_execute_bytecode\n                0x1001c184     0x1374 CMakeFiles/firmware.dir/py/vm.c.o\n"
                "                0x1001c184                mp_execute_bytecode\n"
                " .text.gc_alloc   0x10009774      0x1d8 CMakeFiles/firmware.dir/py/gc.c.o\n"
                " .rodata.mp_type_float\n                0x10040000       0x30 CMakeFiles/firmware.dir/py/objfloat.c.o\n")
    sections = c.functions(map_text)
    misses = {"1001c184": 5, "1101c190": 2, "10009774": 3, "10040008": 1, "10000000": 4}
    assert c.by_function(misses, sections) == [
        (7, "mp_execute_bytecode", "vm.c"), (4, "(outside any section)", ""), (3, "gc_alloc", "gc.c"),
        (1, "mp_type_float (data)", "objfloat.c")]
    assert c.profile(misses, map_text)[-1] == ("       15 misses; by source file: vm.c 46.7%, ? 26.7%, gc.c 20.0%, "
                                               "objfloat.c 6.7%")


def test_make_calibrate_says_what_it_needs_when_a_build_is_missing():
    env = {k: v for k, v in os.environ.items() if k not in ("SRAM_UF2", "MPY_DIR", "PLAIN_UF2")}
    done = subprocess.run(["make", "-s", "calibrate"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode != 0
    assert "missing --sram, --mpy-dir" in done.stderr
    assert "micropython#19370" in done.stderr and "hardware/calibration.md" in done.stderr


def test_the_runner_times_a_program_by_the_picos_own_clock(tmp_path):
    try:
        uf2, rom = pico_files()
    except MissingPicoFiles as e:
        pytest.fail(str(e))
    files = tmp_path / "files"
    files.mkdir()
    (files / "sleeper.py").write_text("import time\nt0 = time.ticks_us()\ntime.sleep_ms(40)\n"
                                      "print(time.ticks_diff(time.ticks_us(), t0), 1, 'done')\n")
    image = tmp_path / "fs.img"
    image.write_bytes(flash.image(files))
    answer = c.run(uf2, rom, image, "sleeper")
    us, norm = c.parse(answer["output"])
    assert 40_000 <= us < 41_000 and norm == 1  # ticks_us, not the PC's clock: the emulator runs slower
    assert answer["emulated_ns"] >= 40e6
    assert answer["xip"]["misses"] > 0 and answer["xip"]["hits"] > answer["xip"]["misses"]
