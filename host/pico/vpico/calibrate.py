"""How close the emulated Pico is to silicon: MicroPython's own perfbench
programs on two builds of v1.28.0 for RPI_PICO, in the emulated Pico with its
XIP cache, against what upstream measured on a real RP2040.

    python -m host.pico.vpico.calibrate --sram UF2 --mpy-dir DIR [--plain UF2] [--n 100] [--m 100]
                                   [--record FILE] [--profile BENCH --map MAP]
    python -m host.pico.vpico.calibrate --from-record FILE

``--plain`` is v1.28.0 as released (default: the stock UF2 the emulated Pico
runs, PICO_UF2); ``--sram`` the same source with the linker change of
micropython#19370, which puts py/vm.c, py/gc.c and py/parse.c in SRAM
instead of flash. ``--mpy-dir`` is the v1.28.0 source tree: its
tests/perf_bench holds the programs. Each program runs as upstream's
tests/run-perfbench.py sends it (benchrun.py, the program, ``bm_run(N, M)``)
on a freshly started Pico, and the Pico's ticks_us times it. A benchmark's
gain is upstream's: time on the plain build / time on the SRAM build - 1.
The emulator is deterministic, so one run of each is the figure.

``--profile BENCH --map MAP`` instead runs one program on the plain build and
lists the functions (from the firmware's linker map) whose flash reads
missed the cache most. hardware/calibration.md has the method and the table.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from bisect import bisect_right
from pathlib import Path

from host.pico.vpico import HERE, MissingPicoFiles, pico_files
from host.pico.vpico import flash

# micropython#19370, "Pico W (RP2040, 125 MHz, average of 5)": each benchmark's
# gain from running vm.c, gc.c and parse.c from SRAM, in percent; mean +13.5 %
UPSTREAM = {
    "bm_chaos": 28.9, "bm_fannkuch": 26.7, "bm_hexiom": 23.0, "bm_nqueens": 22.1,
    "bm_pidigits": 20.8, "misc_mandel": 18.4, "misc_pystone": 10.8, "bm_float": 8.0,
    "bm_fft": 3.4, "misc_aes": 3.1, "bm_wordcount": -1.8, "misc_raytrace": -2.0,
}
UPSTREAM_MEAN = 13.5
RUNNER = HERE / "perfbench.mjs"
FLASH_START, FLASH_END = 0x10000000, 0x11000000
NEEDS = """the calibration needs:
  the SRAM build   MicroPython v1.28.0 for RPI_PICO built with the linker change of micropython#19370
                   (--sram UF2, or SRAM=... for make calibrate)
  the sources      the MicroPython v1.28.0 source tree, for its tests/perf_bench programs
                   (--mpy-dir DIR, or MPY_DIR=...)
hardware/calibration.md says how to build both."""


class CalibrationError(RuntimeError):
    """A run that gave no figure: what the Pico printed, or what is missing."""


def program(perf_bench, name, n, m):
    """The text upstream's run-perfbench.py sends for one benchmark."""
    folder = Path(perf_bench)
    return (folder / "benchrun.py").read_text() + (folder / f"{name}.py").read_text() + f"\nbm_run({n}, {m})\n"


def parse(output):
    """(microseconds, norm) from what benchrun.py printed: "TIME NORM RESULT"."""
    fields = output.strip().split()
    if len(fields) < 2 or not fields[0].lstrip("-").isdigit():
        raise CalibrationError(f"the benchmark printed no time: {output!r}")
    us = int(fields[0])
    if us <= 0:
        raise CalibrationError(f"the benchmark was skipped or failed: {output!r}")
    return us, int(fields[1])


def gains(plain, sram):
    """{benchmark: gain in percent} from two {benchmark: microseconds}."""
    return {name: (plain[name] / sram[name] - 1) * 100 for name in plain if name in sram}


def table(plain, sram):
    """The comparison as Markdown lines: each benchmark's gain beside upstream's, and the means."""
    got = gains(plain, sram)
    names = [name for name in UPSTREAM if name in got]
    lines = ["| benchmark | plain (µs) | SRAM (µs) | emulated gain | Pico W gain | error (points) |",
             "| --- | --: | --: | --: | --: | --: |"]
    for name in names:
        lines.append(f"| {name} | {plain[name]} | {sram[name]} | {got[name]:+.1f} % | {UPSTREAM[name]:+.1f} % "
                     f"| {got[name] - UPSTREAM[name]:+.1f} |")
    mean = sum(got[n] for n in names) / len(names)
    upstream = sum(UPSTREAM[n] for n in names) / len(names)
    mae = sum(abs(got[n] - UPSTREAM[n]) for n in names) / len(names)
    lines.append(f"| mean | | | {mean:+.1f} % | {upstream:+.1f} % | {mean - upstream:+.1f} |")
    lines.append(f"\nmean absolute error {mae:.1f} points over {len(names)} benchmarks")
    return lines


def run(uf2, rom, image, module, profile=False):
    """One program on a fresh emulated Pico: the runner's JSON answer."""
    cmd = ["node", str(RUNNER), "--rom", str(rom), "--uf2", str(uf2), "--fs", str(image), "--module", module]
    done = subprocess.run(cmd + (["--profile"] if profile else []), capture_output=True, text=True)
    if done.returncode:
        raise CalibrationError(done.stderr.strip() or f"the runner stopped with code {done.returncode}")
    return json.loads(done.stdout)


def functions(map_text):
    """Sorted (start, end, name, object file) of what a GNU ld map places in flash: a function's own
    section (-ffunction-sections), else the symbols a section holds, else the section's name."""
    sections = []
    for m in re.finditer(r"^ (\.\S+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)", map_text, re.M):
        name, start, size, obj = m.group(1), int(m.group(2), 16), int(m.group(3), 16), m.group(4)
        if FLASH_START <= start < FLASH_END and size:
            sections.append((start, start + size, name, Path(obj.split("(")[-1].rstrip(")")).name.removesuffix(".o")))
    symbols = sorted((int(a, 16), n) for a, n in re.findall(r"^\s+0x([0-9a-f]+)\s+([A-Za-z_]\w*)$", map_text, re.M))
    found = []
    for start, end, name, obj in sorted(sections):
        if name.startswith(".text."):
            found.append((start, end, name[6:], obj))
            continue
        if name.startswith(".rodata."):
            found.append((start, end, name[8:] + " (data)", obj))
            continue
        first = bisect_right(symbols, (start,))
        inside = symbols[first:bisect_right(symbols, (end,), first)]
        if not inside or inside[0][0] > start:
            inside.insert(0, (start, name))
        for (a, n), nxt in zip(inside, inside[1:] + [(end, "")]):
            if nxt[0] > a:
                found.append((a, nxt[0], n, obj))
    return found


def by_function(misses, sections):
    """[(misses, name, object file)] of a {hex address: misses} profile, most first."""
    starts = [s[0] for s in sections]
    counts = {}
    for address, n in misses.items():
        a = int(address, 16) & 0x00FFFFFF | FLASH_START  # any of the four aliases
        i = bisect_right(starts, a) - 1
        key = sections[i][2:] if i >= 0 and a < sections[i][1] else ("(outside any section)", "")
        counts[key] = counts.get(key, 0) + n
    return sorted(((n, name, obj) for (name, obj), n in counts.items()), reverse=True)


def profile(misses, map_text, top=25):
    """Lines of a {hex address: misses} profile: the functions that missed most, then by source file."""
    rows = by_function(misses, functions(map_text))
    total = sum(n for n, _, _ in rows)
    files = {}
    for n, _, obj in rows:
        files[obj] = files.get(obj, 0) + n
    lines = [f"{n:9} {n / total:6.1%}  {name}  ({obj})" for n, name, obj in rows[:top]]
    lines.append(f"{total:9} misses; by source file: " + ", ".join(
        f"{obj or '?'} {n / total:.1%}" for obj, n in sorted(files.items(), key=lambda f: -f[1])[:8]))
    return lines


def measure(args, rom):
    names = list(UPSTREAM)
    perf_bench = Path(args.mpy_dir) / "tests" / "perf_bench"
    with tempfile.TemporaryDirectory() as tmp:
        files = Path(tmp) / "files"
        files.mkdir()
        for name in names:
            (files / f"pb_{name}.py").write_text(program(perf_bench, name, args.n, args.m))
        image = Path(tmp) / "fs.img"
        image.write_bytes(flash.image(files))
        if args.profile:
            return run(args.plain, rom, image, f"pb_{args.profile}", profile=True)
        record = {"n": args.n, "m": args.m, "plain": {}, "sram": {}}
        for name in names:
            for build in ("plain", "sram"):
                answer = run(getattr(args, build), rom, image, f"pb_{name}")
                record[build][name] = {"output": answer["output"], "xip": answer["xip"]}
                print(f"{name:14} {build:5} {answer['output']}", file=sys.stderr, flush=True)
    return record


def times(record, build):
    return {name: parse(r["output"])[0] for name, r in record[build].items()}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host.pico.vpico.calibrate", description=__doc__.split("\n\n")[0])
    ap.add_argument("--plain", default=os.environ.get("PLAIN_UF2"), help="v1.28.0 as released (default: PICO_UF2)")
    ap.add_argument("--sram", default=os.environ.get("SRAM_UF2"), help="v1.28.0 with vm.c, gc.c, parse.c in SRAM")
    ap.add_argument("--mpy-dir", default=os.environ.get("MPY_DIR"), help="the MicroPython v1.28.0 source tree")
    ap.add_argument("--n", type=int, default=100, help="run-perfbench.py's N (default 100)")
    ap.add_argument("--m", type=int, default=100, help="run-perfbench.py's M (default 100)")
    ap.add_argument("--record", help="write every run's output here (JSON)")
    ap.add_argument("--from-record", help="print the table of a record written by --record; run nothing")
    ap.add_argument("--profile", choices=list(UPSTREAM), help="list the plain build's cache misses by function for this benchmark")
    ap.add_argument("--map", help="the plain build's linker map (firmware.elf.map), for --profile")
    args = ap.parse_args(argv)

    if args.from_record:
        record = json.loads(Path(args.from_record).read_text())
    else:
        try:
            uf2, rom = pico_files()
        except MissingPicoFiles as e:
            ap.exit(2, f"calibrate: {e}\n")
        args.plain = args.plain or uf2
        missing = [what for what, path in (("--sram", args.sram), ("--mpy-dir", args.mpy_dir)) if not path]
        if args.profile:
            missing = ["--mpy-dir"] * (not args.mpy_dir) + ["--map"] * (not args.map)
        if missing:
            ap.exit(2, f"calibrate: missing {', '.join(missing)}\n{NEEDS}\n")
        for path in filter(None, (args.plain, args.sram, args.map, args.mpy_dir and Path(args.mpy_dir) / "tests" / "perf_bench")):
            if not Path(path).exists():
                ap.exit(2, f"calibrate: {path} does not exist\n{NEEDS}\n")
        try:
            record = measure(args, rom)
        except CalibrationError as e:
            ap.exit(1, f"calibrate: {e}\n")
        if args.profile:
            print(f"{args.profile}: cache misses on the plain build (boot excluded), by function")
            print("\n".join(profile(record["misses"], Path(args.map).read_text())))
            return
        if args.record:
            Path(args.record).write_text(json.dumps(record, indent=1) + "\n")
    print(f"N={record['n']} M={record['m']}, Pico time by ticks_us, gain = plain / SRAM - 1")
    print("\n".join(table(times(record, "plain"), times(record, "sram"))))


if __name__ == "__main__":
    main()
