"""make bench runs on CPython, WebAssembly and the emulated Pico and prints every figure beside its budget.

The Pico column takes minutes of emulated RP2040, so the table here is
printed with the Pico's figures stood in for (the other two columns are
measured); one Pico figure, boot to the first frame, is measured for real
on the image the bench boots."""

import contextlib
import io
import json
import os

import pytest

from host import ROOT, bench
from host.bench import device as bench_device, pico as bench_pico
from host.boardfile import read_board
from host.pico.vpico import MissingPicoFiles, VirtualPico, flash, pico_files
from rules.games import GAMES, find_game


def pico_figures(**changes):
    """What host/bench/pico.py reports for every board: each figure within
    its budget, but ``changes`` (figure -> value, on every board; a figure
    of the loop, the game or the device figures by its own name)."""
    device = {"decide_us": 4000, "decisions": 5, "hint_us": 5000000, "hint_nodes": 300, "budget_us": 1400000,
              "budget_nodes": 80, "budget_passes": 1, "budget_rated": 5, "plans": 5, "game_us": 900000, "game_steps": 10, "playouts_per_s": 1.1,
              "steps_per_s": 11}
    loop = {"period_us": 9000, "tick_us": 3000, "passes": 100, "agreed": True, "lifting": True, "in_hand": 3,
            "moves": 5, "collect_us": 6000, "targets": 4}
    game = {"steps": 100, "lowest": 120000, "free": 130000, "hint_us": 1450000, "game_ms": 9000, "faults": 0,
            "lowest_block": 20000, "free_block": 21000, "true_lowest": 110000, "true_lowest_block": 15000}
    one = {"boot_ms": 1200, "resume_ms": 1300, "pixels": 100, "press_sent_ms": 10, "press_lit_ms": 13,
           "click_lit_ms": 14, "pause_ms": 45}
    slow = {"boot_ms": 2000, "resume_ms": 1900, "pause_ms": 420}
    link = {"idle_us": 70, "sub_us": 270, "longest_us": 3300, "ticks": 1000, "frames_per_s": 10, "idle_pass_us": 2500,
            "idle_longest_pass_us": 6000, "sub_pass_us": 2600, "sub_longest_pass_us": 7000, "load_us": 50000,
            "make_us": 7000}
    for key, value in changes.items():
        for part in (device, loop, game, one, link):
            if key in part:
                part[key] = value
        if key.startswith("max_"):
            slow[key[4:]] = value
    figures = {}
    for name in GAMES:
        figures[name] = dict(one, loop=dict(loop), game=dict(game), device={name: dict(device)}, link=dict(link),
                             max_flash=dict(slow))
    figures[GAMES[-1]]["device"].update(
        led={"board": "b", "pixels": 100, "encode_us": 900, "adafruit_us": 9000, "frame_bytes_allocated": 0},
        polls={"button": 0, "picker": 0, "sensors": 0, "wheels": 0})
    return figures


def power(nodes):
    return {name: (150, 100) for name in nodes}  # 75%: stronger than the greedy player


@pytest.fixture(scope="module")
def table():
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(out):
        patch.setattr(bench_pico, "figures", lambda positions: pico_figures())
        patch.setattr(bench, "strength_of", power)
        assert bench.main([]) == 0
    return out.getvalue().splitlines()


@pytest.mark.wasm
def test_bench_prints_the_led_figures_for_every_interpreter(table):
    assert table[0].split()[:5] == ["figure", "CPython", "WebAssembly", "Pico", "budget"]
    assert any(l.startswith("budgets: docs/budgets.md") for l in table)
    encode = next(l for l in table if l.startswith("LED frame encode"))
    assert "pixels" in encode
    allocated = next(l for l in table if l.startswith("LED frame: bytes allocated"))
    assert allocated.split()[-1] in ("within", "OVER")


@pytest.mark.wasm
def test_bench_prints_every_game_beside_its_budgets(table):
    for name in GAMES:
        rows = [l for l in table if l.startswith(name + ":")]
        decide = next(l for l in rows if "all legal decisions" in l)
        assert "<= 2000 (WebAssembly), <= 10000 (Pico)" in decide and decide.split()[-1] in ("within", "OVER")
        assert any("heap in use" in l for l in rows)
        assert any("what a hint loads" in l for l in rows)
        playouts = next(l for l in rows if "random playouts per second" in l)
        assert playouts.split()[-2:] in (["goal", "met"], ["under", "goal"])
        assert any("a whole random game" in l for l in rows)
        assert any("first changed pixel lit" in l and "<= 16" in l for l in rows)
        assert any(l.startswith("  %s (" % name) and "save {" in l for l in table), "the worst position is named"
        for figure, budget in (("heap free on the board at the lowest point", ">= 96 KB"),
                               ("the loop's period at the worst moment", "<= 10"),
                               ("boot to the first frame", "<= 1500"),
                               ("boot with the flash's maximum erase", "<= 2500"),
                               ("the longest pause between two frames", "<= 60"),
                               ("the hint as the controller asks for it", "<= 1500"),
                               ("a hint asked on the board", "<= 1500"),
                               ("the USB line protocol's share of a tick", "<= 1 (Pico, subscribed)"),
                               ("main.py's loop meanwhile", "<= 10 (Pico, longest)")):
            row = next(l for l in rows if figure in l)
            assert budget in row and row.split()[-1] == "within", row
        assert "stronger than greedy" in next(l for l in rows if "its strength at 80 nodes" in l)
    click = next(l for l in table if l.startswith("snuka:") and "its click" in l)
    assert "<= 16" in click and click.split()[-1] == "within"
    for port in ("Button.poll", "ButtonPicker.poll", "Sensors.poll", "Wheels.poll"):
        assert next(l for l in table if port in l).split()[-1] in ("within", "OVER")


@pytest.mark.wasm
def test_the_heap_is_measured_on_the_firmware_as_the_pico_loads_it(table):
    note = next(l for l in table if l.startswith("heap in use (WebAssembly):"))
    assert ".mpy files of host/pico/build.py" in note and "NOT loaded from .mpy" not in note
    assert "hal.storage" in note and "hal.beams" in note and "rules.players" in note and "main.py" in note
    assert any(l.startswith("heap free on the board (Pico):") for l in table)


def test_the_heap_counts_the_controller_as_a_game_runs_and_the_look_of_that_game_alone():
    looks = {find_game(name).look for name in GAMES} - {""}
    app = {f[:-3] for f in os.listdir(os.path.join(ROOT, "firmware", "app")) if f.endswith(".py")} - {"__init__"}
    unloaded = {"startup", "bringup", "link", "link_viper"}  # once the game runs; the link until a host speaks
    assert app == set(bench_device.APP) | unloaded | {look.split(".")[1] for look in looks}
    assert not looks & {"app." + m for m in bench_device.APP}


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
    game = {"decide_us": decide_us, "decisions": 5, "hint_us": 1000, "hint_nodes": 300, "budget_us": 1000,
            "budget_nodes": 300, "budget_passes": 2, "budget_rated": 5, "plans": 5, "game_us": 1000, "game_steps": 10,
            "playouts_per_s": 10, "steps_per_s": 100, "press": {"press_ms": 10, "pass_us": 100, "pixels": 100}}
    figures = {"led": led, "polls": polls}
    figures.update((name, dict(game)) for name in GAMES)
    heaps = {"heap": heap, "code": heap // 2, "base": 1000, "hint": 5000, "mpy": True,
             "modules": ["hal.die", "app.controller"], "skipped": []}
    return figures, heaps


@pytest.mark.parametrize("decide_us, heap, pico, status", [
    (500, 1000, {}, 0),
    (2500, 1000, {}, 1),
    (500, 70000, {}, 0),  # the heap on WebAssembly is shown; the budget is the heap free on the Pico
    (500, 1000, {"decide_us": 10500}, 1),
    (500, 1000, {"press_lit_ms": 16.5}, 1),
    (500, 1000, {"press_lit_ms": None, "press_sent_ms": None}, 1),  # no frame answered the press
    (500, 1000, {"period_us": 10100}, 1),
    (500, 1000, {"agreed": False}, 1),  # the board never matched the worst position: not measured there
    (500, 1000, {"lowest": 95 * 1024}, 1),
    (500, 1000, {"true_lowest": 95 * 1024}, 1),
    (500, 1000, {"resume_ms": 1501}, 1),
    (500, 1000, {"budget_us": 1600000}, 1),
    (500, 1000, {"sub_us": 1100}, 1),  # the USB protocol costs a tick more than 1 ms with a host subscribed
    (500, 1000, {"idle_longest_pass_us": 10200}, 1),  # every figure of a row: main.py's pass with no host too
    (500, 1000, {"pause_ms": 61}, 1),
    (500, 1000, {"load_us": 58000}, 1),
    (500, 1000, {"make_us": 58000}, 1),  # a host's first byte: loading the link and a pass after it, over 60 ms
    (500, 1000, {"max_boot_ms": 2600}, 1),  # boot at the flash's maximum times
    (500, 1000, {"max_pause_ms": 430}, 0),  # shown, with no budget of its own
])
def test_bench_check_fails_when_a_figure_is_over_its_budget(monkeypatch, capsys, decide_us, heap, pico, status):
    figures, heaps = fake_figures(decide_us, heap)
    position = {"players": 2, "options": {}, "seed": 0, "step": 0, "outcome": 0, "roll": "1", "decisions": 5,
                "save": {}}
    monkeypatch.setattr(bench, "worst_position", lambda name: position)
    monkeypatch.setattr(bench, "on_cpython", lambda lib, positions: figures)
    monkeypatch.setattr(bench, "on_micropython", lambda lib, args: heaps if args[0] == "--heap" else figures)
    monkeypatch.setattr(bench, "pack_firmware", lambda lib, name: None)
    monkeypatch.setattr(bench_pico, "figures", lambda positions: pico_figures(**pico))
    monkeypatch.setattr(bench, "strength_of", power)
    assert bench.main(["--check"]) == status
    assert bench.main([]) == 0  # without --check the table is only printed
    assert ("OVER" in capsys.readouterr().out) == bool(status)


def frame(n, start, hex_bytes):
    return {"n": n, "boot": 1, "start_ms": start, "t_ms": start + 3, "hex": hex_bytes}


def test_the_frame_that_answers_the_press_is_the_first_the_twin_did_not_send():
    twin = [frame(0, 100, "0010"), frame(1, 150, "0111"), frame(2, 200, "0212"), frame(3, 250, "0313")]
    # a breathing level a step off (the press shifted the loop by microseconds) is the same picture
    mine = [twin[0], frame(1, 150, "0112"), frame(2, 205, "ff12"), twin[3]]
    shown, since = bench_pico.answer(mine, twin, [120, 160, 210])
    assert (shown["n"], since) == (2, 160)
    with pytest.raises(RuntimeError, match="not alike"):
        bench_pico.answer(mine, twin, [210])  # it differed before the press
    assert bench_pico.answer(twin, twin, [160]) == (None, None)  # nothing answered: the table says OVER


def test_a_frame_a_press_sends_that_changes_nothing_puts_no_pair_out_of_step():
    # an animation steps by 10 a frame; the press at 120 changes nothing but sends a frame of its own at 110
    twin = [frame(0, 100, "0010"), frame(1, 150, "0a11"), frame(2, 200, "1412"), frame(3, 250, "1e13")]
    mine = [twin[0], frame(1, 110, "0010"), frame(2, 150, "0a11"), frame(3, 200, "1412"), frame(4, 213, "ff12"),
            frame(5, 250, "1e13")]
    shown, since = bench_pico.answer(mine, twin, [105, 210])
    assert (shown["n"], since) == (4, 210)  # the frame answering the second press, not the first after the extra one


class Holds:
    """A Pico that reports the stretches its core ran without a pause."""

    def __init__(self, holds):
        self._holds = holds

    def holds(self, since=0):
        return [h for h in self._holds if h[1] >= since]


def test_the_pause_is_the_longest_gap_between_frames_around_a_hold_of_the_core():
    frames = [frame(n, start, "00") for n, start in enumerate((100, 120, 140, 160, 280, 300, 400))]
    # boot before the first frame; a tick of 6 ms between two frames 20 ms apart; a save from 165 to
    # 270 ms; and no frame from 303 to 403 with the core free (an animation that does not change)
    pico = Holds([[50, 90], [125, 131], [165, 270]])
    assert bench_pico.longest_pause(pico, frames) == 283 - 163
    assert bench_pico.longest_pause(Holds([[125, 131]]), frames) == 20


def test_a_click_is_timed_from_its_release_to_the_first_frame_that_changes():
    # held from 100; released at 400 and 700; a breathing step (within JITTER) is no answer
    frames = [frame(0, 100, "1010"), frame(1, 380, "1011"), frame(2, 402, "1012"), frame(3, 410, "ff10"),
              frame(4, 690, "ff10"), frame(5, 705, "10ff")]
    assert bench_pico.click_answered(frames, [400, 700]) == 413 - 400
    assert bench_pico.click_answered(frames[:3], [400]) is None  # the click lit nothing: the table says so


class Watched:
    """A Pico whose heap watch saw ``low`` at its lowest after a collection."""

    def __init__(self, low):
        self.low = low
        self.watched = None

    def watch_heap(self, start, length, collect_end):
        self.watched = (start, length, collect_end)

    def heap_low(self):
        return self.low


def test_the_largest_free_block_is_read_from_mem_info_and_the_true_lowest_from_the_watch(monkeypatch):
    out = ["sniggle, 2 players, piece sensors: a new game", "lowest after step 1", "stack: 772 out of 7936",
           "GC: total: 245888, used: 80752, free: 165136",
           " No. of 1-blocks: 747, 2-blocks: 222, max blk sz: 242, max free sz: 1507", "lowest after step 4",
           " No. of 1-blocks: 860, 2-blocks: 307, max blk sz: 242, max free sz: 826", "after the game",
           " No. of 1-blocks: 859, 2-blocks: 267, max blk sz: 242, max free sz: 900",
           json.dumps({"steps": 9, "lowest": 149104, "free": 150592, "hint_us": 1, "game_ms": 2, "faults": 0})]
    monkeypatch.setattr(bench_pico, "run", lambda pico, code: out)
    pico = Watched({"free": 120000, "largest_block": 9000, "at_ms": 5})
    game = bench_pico.whole_game(pico)
    assert (game["lowest"], game["lowest_block"], game["free_block"]) == (149104, 16 * 826, 16 * 900)
    assert (game["true_lowest"], game["true_lowest_block"]) == (120000, 9000)
    assert pico.watched == (bench_pico.GC_HEAP_START, 245888 // 64, bench_pico.GC_COLLECT_END)
    # a watch that saw more free than a step left after its collection watches the wrong bytes
    with pytest.raises(RuntimeError, match="not where"):
        bench_pico.whole_game(Watched({"free": 160000, "largest_block": 9000, "at_ms": 5}))


@pytest.mark.pico
def test_the_bench_image_boots_on_the_emulated_pico(tmp_path):
    try:
        pico_files()
    except MissingPicoFiles as e:
        pytest.fail(str(e))
    positions = {name: {"save": {}, "outcome": -1} for name in GAMES}
    data = bench_pico.image(tmp_path, "mehen", positions)
    files = flash.read(data)
    for name in ("main.py", "app/device.mpy", "bench_board.mpy", "bench_device.mpy", "adafruit_pixelbuf.mpy"):
        assert name in files, name
    assert json.loads(files["config.json"])["board"] == "mehen"
    assert json.loads(files["positions.json"]) == positions
    (tmp_path / "fs.img").write_bytes(data)
    with VirtualPico(tmp_path / "fs.img", board="mehen") as pico:
        first = bench_pico.first_frame(pico, 1)
    # the figure the bench prints: a real boot of main.py, seconds of the Pico's clock
    assert 300 < first["t_ms"] < 5000 and not first["errors"]
