// The RP2040's execute-in-place block: the 16 KB flash cache in front of the
// QSPI flash, and what a miss costs on the serial bus. rp2040js answers every
// read of the flash window at once; a real Pico runs MicroPython's
// interpreter, garbage collector and parser from flash through this cache,
// and a miss holds the CPU while the SSI clocks the line in.
//
// From the RP2040 datasheet, 2.6.3 (XIP) and 4.10 (SSI):
// - 16 KB, two-way set-associative, 8-byte lines (1024 sets), a hit in one cycle;
// - four aliases of the flash: 0x10 cached and allocating, 0x11 cached but a
//   miss does not allocate, 0x12 never looked up but always allocated, 0x13
//   neither (straight to the flash);
// - CTRL.EN = 0: every access goes straight to the flash, the cache is untouched;
// - FLUSH clears every tag, taking just over 1024 cycles during which an
//   access to the flash waits (reading FLUSH waits for it too); STAT.FLUSH_READY
//   reads 0 meanwhile;
// - a write to the 0x10 alias drops a line that holds that address; a write to
//   another alias is ignored (or a bus fault with CTRL.ERR_BADWRITE); neither
//   changes the flash;
// - CTR_HIT and CTR_ACC count hits and all accesses, saturating, cleared by any write.
// The datasheet does not name the replacement policy of a set: the way used
// least recently is replaced here. The cache-as-SRAM window and the streaming
// FIFO are not modelled (the stock firmware uses neither).

import { BasePeripheral } from "rp2040js";

export const XIP_BASE = 0x10000000;
const XIP_END = 0x14000000;
export const XIP_CTRL_BASE = 0x14000000;
const LINE_BYTES = 8;
const SETS = 1024;
const FLUSH_CYCLES = SETS + 1; // one set cleared per cycle, "just over 1024"
const CTRL = 0x0;
const FLUSH = 0x4;
const STAT = 0x8;
const CTR_HIT = 0xc;
const CTR_ACC = 0x10;
const CTRL_EN = 1;
const CTRL_POWER_DOWN = 8;
const STAT_FIFO_EMPTY = 2;
const STAT_FLUSH_READY = 1;
const SATURATED = 0xffffffff;

// SSI registers (datasheet 4.10.13) that set a transfer's length on the wire
const SSI_CTRLR0 = 0x00;
const SSI_BAUDR = 0x14;
const SSI_RX_SAMPLE_DLY = 0xf0;
const SSI_SPI_CTRLR0 = 0xf4;
const INST_BITS = [0, 4, 8, 16]; // SPI_CTRLR0.INST_L
const LANES = [1, 2, 4, 4]; // CTRLR0.SPI_FRF: standard, dual, quad (3 is reserved)
// The boot ROM's own read before the second stage sets the SSI up: a
// standard-SPI 03h read with an 8-bit instruction and a 24-bit address
const STANDARD_INST_BITS = 8;
const STANDARD_ADDR_BITS = 24;

/**
 * Cycles of the system clock that one XIP read of `dataBits` takes on the
 * QSPI bus, as the SSI's registers describe it: the instruction (none in
 * continuous-read mode), the address (with the mode bits), the wait cycles,
 * then the data, each on the lines its frame format gives, at the SSI's
 * clock (clk_sys / BAUDR.SCKDV), and the receive sample delay.
 */
export function transferCycles(ssi, dataBits) {
  const divider = ssi.readUint32(SSI_BAUDR) & 0xfffe || 2; // SCKDV: even; 0 stops the clock (treated as the fastest)
  const lanes = LANES[(ssi.readUint32(SSI_CTRLR0) >>> 21) & 3];
  const sampleDelay = ssi.readUint32(SSI_RX_SAMPLE_DLY) & 0xff;
  let serialClocks;
  if (lanes === 1) {
    serialClocks = STANDARD_INST_BITS + STANDARD_ADDR_BITS + dataBits;
  } else {
    const spi = ssi.readUint32(SSI_SPI_CTRLR0);
    const transType = spi & 3; // 0: instruction and address on one line, 1: address on all, 2: both on all
    const instBits = INST_BITS[(spi >>> 8) & 3];
    const addrBits = ((spi >>> 2) & 0xf) * 4;
    const wait = (spi >>> 11) & 0x1f;
    serialClocks = instBits / (transType === 2 ? lanes : 1) + addrBits / (transType >= 1 ? lanes : 1) + wait + dataBits / lanes;
  }
  return Math.ceil(serialClocks * divider) + sampleDelay;
}

/** The cache and its control registers (XIP_CTRL at 0x14000000), for one RP2040. */
export class XipCache extends BasePeripheral {
  constructor(mcu, nsPerCycle) {
    super(mcu, "XIP_CTRL");
    this.nsPerCycle = nsPerCycle;
    this.ssi = mcu.peripherals[0x18000];
    this.tags = new Int32Array(SETS * 2).fill(-1); // the line number each way holds, -1: invalid
    this.older = new Uint8Array(SETS); // the way of each set used least recently
    this.ctrl = 0x3; // EN and ERR_BADWRITE at reset
    this.hits = 0;
    this.accesses = 0;
    this.flushDone = 0; // the clock's ns when the last flush ends
    this.stall = 0; // cycles the accesses since it was last cleared held the bus
    this.misses = 0; // line fills and uncached reads since the cache was made
    this.onMiss = null; // (address, cycles) of each access that went to the flash, for a profile
  }

  /** A read of the flash window at `address`: counts it and adds its wait to `stall`. */
  read(address) {
    this.waitForFlush();
    this.accesses = this.accesses === SATURATED ? SATURATED : this.accesses + 1;
    const alias = (address >>> 24) & 3;
    if (!(this.ctrl & CTRL_EN)) return this.fetch(address, 32);
    const line = (address & 0xffffff) >>> 3;
    const set = line & (SETS - 1);
    const way = this.tags[set * 2] === line ? 0 : this.tags[set * 2 + 1] === line ? 1 : -1;
    if (alias <= 1 && way >= 0) {
      this.hits = this.hits === SATURATED ? SATURATED : this.hits + 1;
      this.older[set] = 1 - way;
      return;
    }
    if (alias === 1 || alias === 3) return this.fetch(address, 32); // one word, nothing allocated
    // allocate: the line's own way if the 0x12 alias found it there, else the older one
    const into = way >= 0 ? way : this.older[set];
    this.tags[set * 2 + into] = line;
    this.older[set] = 1 - into;
    this.fetch(address, LINE_BYTES * 8);
  }

  fetch(address, bits) {
    const cycles = transferCycles(this.ssi, bits);
    this.stall += cycles;
    this.misses++;
    if (this.onMiss) this.onMiss(address, cycles);
  }

  /** A write to the flash window: the 0x10 alias drops the line holding it; the flash is never changed. */
  write(address) {
    if ((address >>> 24) & 3) return;
    const line = (address & 0xffffff) >>> 3;
    const set = line & (SETS - 1);
    for (let way = 0; way < 2; way++) if (this.tags[set * 2 + way] === line) this.tags[set * 2 + way] = -1;
  }

  flush() {
    this.tags.fill(-1);
    this.flushDone = this.rp2040.clock.nanos + FLUSH_CYCLES * this.nsPerCycle;
  }

  waitForFlush() {
    const left = this.flushDone - this.rp2040.clock.nanos;
    if (left > 0) {
      this.stall += Math.ceil(left / this.nsPerCycle);
      this.flushDone = 0;
    }
  }

  readUint32(offset) {
    switch (offset) {
      case CTRL:
        return this.ctrl;
      case FLUSH:
        this.waitForFlush();
        return 0;
      case STAT:
        return STAT_FIFO_EMPTY | (this.rp2040.clock.nanos >= this.flushDone ? STAT_FLUSH_READY : 0);
      case CTR_HIT:
        return this.hits >>> 0;
      case CTR_ACC:
        return this.accesses >>> 0;
    }
    return 0;
  }

  writeUint32(offset, value) {
    switch (offset) {
      case CTRL:
        this.ctrl = value & 0xb;
        if (this.ctrl & CTRL_POWER_DOWN) this.ctrl &= ~CTRL_EN;
        return;
      case FLUSH:
        if (value & 1) this.flush();
        return;
      case CTR_HIT:
        this.hits = 0;
        return;
      case CTR_ACC:
        this.accesses = 0;
    }
  }
}

/**
 * Puts the XIP block between the RP2040's buses and its flash: every read of
 * the flash window goes through the cache, and its wait collects in
 * `cache.stall`, which the caller adds to the cycles of the instruction that
 * made it (the CPU, the DMA and both cores share one cache, as on the chip).
 */
export function attachXip(mcu, nsPerCycle) {
  const cache = new XipCache(mcu, nsPerCycle);
  mcu.peripherals[XIP_CTRL_BASE >>> 12] = cache;
  const { flashView, flash } = mcu;
  const inXip = (a) => a >= XIP_BASE && a < XIP_END;
  const [read32, read16, read8] = [mcu.readUint32, mcu.readUint16, mcu.readUint8].map((f) => f.bind(mcu));
  const [write32, write16, write8] = [mcu.writeUint32, mcu.writeUint16, mcu.writeUint8].map((f) => f.bind(mcu));
  mcu.readUint32 = (a) => {
    a >>>= 0;
    if (!inXip(a)) return read32(a);
    cache.read(a);
    return flashView.getUint32(a & 0xfffffc, true);
  };
  mcu.readUint16 = (a) => {
    if (!inXip(a)) return read16(a);
    cache.read(a);
    return flashView.getUint16(a & 0xfffffe, true);
  };
  mcu.readUint8 = (a) => {
    if (!inXip(a)) return read8(a);
    cache.read(a);
    return flash[a & 0xffffff];
  };
  mcu.writeUint32 = (a, v) => (inXip(a >>> 0) ? cache.write(a >>> 0) : write32(a, v));
  mcu.writeUint16 = (a, v) => (inXip(a) ? cache.write(a) : write16(a, v));
  mcu.writeUint8 = (a, v) => (inXip(a) ? cache.write(a) : write8(a, v));
  return cache;
}
