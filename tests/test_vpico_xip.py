"""The emulated Pico's XIP flash cache against the RP2040 datasheet (2.6.3,
4.10): small Thumb programs run on an emulated RP2040 (tests/vpico_xip.mjs)
and what they took is held to what the datasheet says the chip does.

The SSI is set as the Pico's second-stage boot leaves it: quad continuous
read, 32 address bits (24 and the mode byte), 4 wait cycles, 64 data bits a
line, the serial clock at clk_sys / 2, a receive sample delay of 1 cycle.
A line fill is then (8 + 4 + 16) serial clocks x 2 + 1 = 57 cycles of the
CPU, one uncached 32-bit word (8 + 4 + 8) x 2 + 1 = 41.
"""

import json
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.pico

ROOT = Path(__file__).resolve().parent.parent
LINE_MISS = (8 + 4 + 16) * 2 + 1
WORD_MISS = (8 + 4 + 8) * 2 + 1
FLUSH_CYCLES = 1025  # the datasheet: zeroing the tags takes "just over 1024" cycles


@pytest.fixture(scope="module")
def cases():
    out = subprocess.run(["node", str(ROOT / "tests" / "vpico_xip.mjs")], cwd=ROOT,
                         capture_output=True, text=True, timeout=120, check=True).stdout
    return json.loads(out)


def test_a_loop_that_fits_the_cache_runs_at_ram_speed_after_its_first_pass(cases):
    fits = cases["fits"]
    lines = fits["bytes"] // 8
    assert fits["flash1"] - fits["ram1"] == lines * LINE_MISS  # the first pass fills every line once
    assert fits["warm10"] == fits["ram10"]  # ten more passes: not one cycle over RAM
    assert fits["hits"] > 0 and fits["accesses"] > fits["hits"]


def test_a_flush_empties_the_cache_and_holds_the_next_access_until_it_is_done(cases):
    fits = cases["fits"]
    assert fits["flushed"] - fits["ram1"] == fits["bytes"] // 8 * LINE_MISS + FLUSH_CYCLES
    assert cases["flush"]["ready_at_once"] == 0  # STAT.FLUSH_READY reads 0 while the tags clear
    assert cases["flush"]["first_read"] == FLUSH_CYCLES + LINE_MISS


def test_three_lines_of_one_set_thrash_both_ways_and_every_access_misses(cases):
    thrash = cases["thrash"]
    assert thrash["misses"] == 300 and thrash["hits"] == 0 and thrash["accesses"] == 300
    assert thrash["hundred"] - thrash["ram"] == 300 * LINE_MISS


def test_two_lines_of_one_set_live_in_its_two_ways(cases):
    two = cases["two_ways"]
    assert two["misses"] == 0 and two["hits"] == two["accesses"] == 300
    assert two["hundred"] == two["ram"]


def test_the_uncached_and_non_allocating_aliases_never_fill_a_line(cases):
    a = cases["aliases"]
    assert a["uncached"] == [WORD_MISS, WORD_MISS]  # 0x13: straight to the flash, every time
    assert a["cached_after_uncached"] == LINE_MISS  # ... and it left nothing in the cache
    assert a["noalloc_hit"] == 0  # 0x11 finds what 0x10 brought in
    assert a["noalloc_miss"] == [WORD_MISS, WORD_MISS]  # but brings nothing in itself
    assert a["cached_after_noalloc_miss"] == LINE_MISS
    assert a["nocache_alloc"] == [LINE_MISS, LINE_MISS]  # 0x12 never looks, always fills
    assert a["cached_after_nocache_alloc"] == 0


def test_a_disabled_cache_sends_every_access_to_the_flash_and_keeps_its_lines(cases):
    a = cases["aliases"]
    assert a["disabled"] == [WORD_MISS, WORD_MISS]
    assert a["enabled_again"] == 0


def test_a_write_to_the_cached_alias_drops_the_line_and_never_changes_the_flash(cases):
    a = cases["aliases"]
    assert a["after_write"] == LINE_MISS
    assert a["flash_unchanged"]


def test_the_miss_cost_follows_the_ssi_clock_divider(cases):
    for divider, cost in cases["dividers"].items():
        d = int(divider)
        assert cost["measured"] == cost["line"] == (8 + 4 + 16) * d + 1
        assert cost["word"] == (8 + 4 + 8) * d + 1
