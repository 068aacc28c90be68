// Small Thumb programs on an emulated RP2040 with the XIP cache of
// host/pico/vpico/xip.mjs, for tests/test_vpico_xip.py: prints what each took,
// as JSON. No firmware: the SSI is set up as the RPI_PICO second stage
// (boot2_w25q080, PICO_FLASH_SPI_CLKDIV 2) leaves it, unless a case says.

import { RP2040 } from "rp2040js";
import { attachXip, transferCycles } from "../host/pico/vpico/xip.mjs";

const NS_PER_CYCLE = 8;
const SSI = 0x18000000;
const XIP_CTRL = 0x14000000;
const RAM_CODE = 0x20000000;
const FLASH_CODE = 0x10001000;
const DATA = 0x10010000;
const WAY_STRIDE = 8192; // 1024 sets of 8 bytes: addresses this far apart share a set
const STOP = 0xbe00; // BKPT #0

function pico({ divider = 2 } = {}) {
  const mcu = new RP2040();
  mcu.logger = { debug() {}, info() {}, warn() {}, error() {} };
  const cache = attachXip(mcu, NS_PER_CYCLE);
  // quad frames of 32 bits, EEPROM-read mode; continuous read: no instruction,
  // 32 address bits (24 + the mode byte) and data on four lines, 4 wait cycles
  mcu.writeUint32(SSI + 0x00, (2 << 21) | (31 << 16) | (3 << 8));
  mcu.writeUint32(SSI + 0xf4, (0xa0 << 24) | (4 << 11) | (8 << 2) | 2);
  mcu.writeUint32(SSI + 0x14, divider);
  mcu.writeUint32(SSI + 0xf0, 1);
  mcu.onBreak = () => {
    mcu.stopped = true;
  };
  return { mcu, cache };
}

function load(mcu, address, halfwords) {
  halfwords.forEach((h, i) => {
    const a = address + 2 * i;
    if (a >= RAM_CODE) mcu.sramView.setUint16(a - RAM_CODE, h, true);
    else mcu.flashView.setUint16(a & 0xffffff, h, true);
  });
}

/** Cycles from `pc` to the BKPT, the cache's waits included. */
function run(mcu, cache, pc, registers = {}) {
  for (const [r, v] of Object.entries(registers)) mcu.core.registers[r] = v;
  mcu.core.PC = pc;
  mcu.stopped = false;
  let cycles = 0;
  while (!mcu.stopped) {
    cache.stall = 0;
    const n = mcu.core.executeInstruction() + cache.stall;
    mcu.clock.tick(n * NS_PER_CYCLE);
    cycles += n;
  }
  return cycles;
}

// r0 passes over `body` instructions that keep the flags: subs r0,#1 / mov r8,r8 x body / beq done / b loop / done: bkpt
function straightLoop(body) {
  const code = [0x3801];
  for (let i = 0; i < body; i++) code.push(0x46c0);
  code.push(0xd000); // beq +0: over the branch back
  const back = -(code.length + 2); // halfwords from the b's PC+4 to the loop's start
  code.push(0xe000 | (back & 0x7ff));
  code.push(STOP);
  return code;
}

// r0 passes over ldr r3,[r1] / ldr r3,[r2] / ldr r3,[r4] / subs r0,#1 / bne loop / bkpt
const LOADS = [0x680b, 0x6813, 0x6823, 0x3801, 0xd1fa, STOP];

const cases = {};

// A loop of 2 KB fits the cache: its first pass pays a miss a line, later ones run as from RAM
{
  const { mcu, cache } = pico();
  const code = straightLoop(1000);
  load(mcu, RAM_CODE, code);
  load(mcu, FLASH_CODE, code);
  const ram1 = run(mcu, cache, RAM_CODE, { 0: 1 });
  const ram10 = run(mcu, cache, RAM_CODE, { 0: 10 });
  const flash1 = run(mcu, cache, FLASH_CODE, { 0: 1 });
  const warm10 = run(mcu, cache, FLASH_CODE, { 0: 10 });
  mcu.writeUint32(XIP_CTRL + 0x4, 1);
  const flushed = run(mcu, cache, FLASH_CODE, { 0: 1 });
  cases.fits = { bytes: code.length * 2, ram1, ram10, flash1, warm10, flushed, hits: mcu.readUint32(XIP_CTRL + 0xc), accesses: mcu.readUint32(XIP_CTRL + 0x10) };
}

// Three lines of one set thrash its two ways; two lines share it
for (const [name, third] of [["thrash", DATA + 2 * WAY_STRIDE], ["two_ways", DATA]]) {
  const { mcu, cache } = pico();
  load(mcu, RAM_CODE, LOADS);
  const regs = (n) => ({ 0: n, 1: DATA, 2: DATA + WAY_STRIDE, 4: third });
  const ram = run(mcu, cache, RAM_CODE, { 0: 100, 1: RAM_CODE + 0x1000, 2: RAM_CODE + 0x2000, 4: RAM_CODE + 0x3000 });
  const one = run(mcu, cache, RAM_CODE, regs(1));
  mcu.writeUint32(XIP_CTRL + 0xc, 0);
  mcu.writeUint32(XIP_CTRL + 0x10, 0);
  const missesBefore = cache.misses;
  const hundred = run(mcu, cache, RAM_CODE, regs(100));
  cases[name] = { one, hundred, misses: cache.misses - missesBefore, hits: mcu.readUint32(XIP_CTRL + 0xc), accesses: mcu.readUint32(XIP_CTRL + 0x10), ram };
}

// The aliases: 0x13 never allocates, 0x11 looks up but does not allocate, 0x12 allocates without looking
{
  const { mcu, cache } = pico();
  const read = (address) => {
    cache.stall = 0;
    mcu.readUint32(address);
    return cache.stall;
  };
  const offset = DATA & 0xffffff;
  cases.aliases = {
    uncached: [read(0x13000000 + offset), read(0x13000000 + offset)],
    cached_after_uncached: read(0x10000000 + offset),
    noalloc_hit: read(0x11000000 + offset),
    noalloc_miss: [read(0x11000000 + offset + 64), read(0x11000000 + offset + 64)],
    cached_after_noalloc_miss: read(0x10000000 + offset + 64),
    nocache_alloc: [read(0x12000000 + offset + 128), read(0x12000000 + offset + 128)],
    cached_after_nocache_alloc: read(0x10000000 + offset + 128),
  };
  // CTRL.EN = 0: every access goes to the flash, and nothing cached is lost
  mcu.writeUint32(XIP_CTRL, 0);
  cases.aliases.disabled = [read(0x10000000 + offset), read(0x10000000 + offset)];
  mcu.writeUint32(XIP_CTRL, 1);
  cases.aliases.enabled_again = read(0x10000000 + offset);
  // a write to the cached alias drops the line and leaves the flash as it was
  const before = mcu.readUint32(0x10000000 + offset);
  mcu.writeUint32(0x10000000 + offset, 0x12345678);
  cases.aliases.after_write = read(0x10000000 + offset);
  cases.aliases.flash_unchanged = mcu.readUint32(0x10000000 + offset) === before;
}

// A flush takes its time: an access right after it waits for the tags to clear
{
  const { mcu, cache } = pico();
  mcu.readUint32(DATA);
  mcu.writeUint32(XIP_CTRL + 0x4, 1);
  const ready = mcu.readUint32(XIP_CTRL + 0x8) & 1;
  cache.stall = 0;
  mcu.readUint32(DATA);
  cases.flush = { ready_at_once: ready, first_read: cache.stall };
}

// The miss cost follows the SSI's clock divider
cases.dividers = {};
for (const divider of [2, 4, 6]) {
  const { mcu, cache } = pico({ divider });
  cases.dividers[divider] = { line: transferCycles(mcu.peripherals[0x18000], 64), word: transferCycles(mcu.peripherals[0x18000], 32) };
  cache.stall = 0;
  mcu.readUint32(DATA);
  cases.dividers[divider].measured = cache.stall;
}

process.stdout.write(JSON.stringify(cases));
