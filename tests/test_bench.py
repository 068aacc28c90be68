"""make bench runs on both interpreters and prints every figure beside its budget."""

import subprocess
import sys

import pytest

from host import bench
from host.boardfile import read_board
from rules.games import GAMES, find_game

ROOT = __file__.rsplit("/tests/", 1)[0]


@pytest.fixture(scope="module")
def table():
    result = subprocess.run([sys.executable, "-m", "host.bench"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_bench_prints_the_led_figures_for_both_interpreters(table):
    assert table[0].split()[:4] == ["figure", "CPython", "MicroPython", "budget"]
    encode = next(l for l in table if l.startswith("LED frame encode"))
    assert "pixels" in encode
    allocated = next(l for l in table if l.startswith("LED frame: bytes allocated"))
    assert allocated.split()[-1] in ("within", "OVER")


def test_bench_prints_every_game_beside_its_budgets(table):
    for name in GAMES:
        rows = [l for l in table if l.startswith(name + ":")]
        decide = next(l for l in rows if "all legal decisions" in l)
        assert "<= 2000" in decide and decide.split()[-1] in ("within", "OVER")
        heap = next(l for l in rows if "heap in use" in l)
        assert "<= 64 KB" in heap and heap.split()[-1] in ("within", "OVER")
        assert any("what a hint loads" in l for l in rows)
        playouts = next(l for l in rows if "random playouts per second" in l)
        assert playouts.split()[-2:] in (["goal", "met"], ["under", "goal"])
        assert any("a whole random game" in l for l in rows)
        assert any("die press" in l for l in rows)
        assert any(l.startswith("  %s (" % name) and "save {" in l for l in table), "the worst position is named"
    for port in ("Button.poll", "ButtonPicker.poll", "Sensors.poll", "Wheels.poll"):
        assert next(l for l in table if port in l).split()[-1] in ("within", "OVER")


def test_the_heap_is_measured_on_the_firmware_as_the_pico_loads_it(table):
    note = next(l for l in table if l.startswith("heap:"))
    assert ".mpy files of host/build.py" in note and "NOT loaded from .mpy" not in note
    assert "hal.storage" in note and "rules.players" in note and "main.py" in note


def test_the_worst_position_is_found_again_and_loads():
    found = bench.worst_position("snuka")
    assert found == bench.worst_position("snuka")
    cls = find_game("snuka")
    board = cls(read_board("snuka"), found["players"], found["options"]).board
    game = cls.load(board, found["save"])
    assert len(game.legal()) == found["decisions"] >= 30


def fake_figures(decide_us, heap):
    """What the two interpreters report, every figure within its budget but the two given."""
    led = {"board": "b", "pixels": 100, "encode_us": 10, "adafruit_us": 20, "frame_bytes_allocated": 0}
    polls = {"button": 0, "picker": 0, "sensors": 0, "wheels": 0}
    game = {"decide_us": decide_us, "decisions": 5, "hint_us": 1000, "hint_nodes": 300, "game_us": 1000, "game_steps": 10, "playouts_per_s": 10,
            "steps_per_s": 100, "press": {"press_ms": 10, "pass_us": 100, "pixels": 100}}
    figures = {"led": led, "polls": polls}
    figures.update((name, dict(game)) for name in GAMES)
    heaps = {"heap": heap, "code": heap // 2, "base": 1000, "hint": 5000, "mpy": True,
             "modules": ["hal.die", "app.controller"], "skipped": []}
    return figures, heaps


@pytest.mark.parametrize("decide_us, heap, status", [(500, 1000, 0), (2500, 1000, 1), (500, 70000, 1)])
def test_bench_check_fails_when_a_figure_is_over_its_budget(monkeypatch, capsys, decide_us, heap, status):
    figures, heaps = fake_figures(decide_us, heap)
    position = {"players": 2, "options": {}, "seed": 0, "step": 0, "outcome": 0, "roll": "1", "decisions": 5, "save": {}}
    monkeypatch.setattr(bench, "worst_position", lambda name: position)
    monkeypatch.setattr(bench, "on_cpython", lambda lib, positions: figures)
    monkeypatch.setattr(bench, "on_micropython", lambda lib, args: heaps if args[0] == "--heap" else figures)
    monkeypatch.setattr(bench, "pack_firmware", lambda lib, name: None)
    assert bench.main(["--check"]) == status
    assert bench.main([]) == 0  # without --check the table is only printed
    assert ("OVER" in capsys.readouterr().out) == bool(status)
