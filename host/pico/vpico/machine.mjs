// The Pico itself: an emulated RP2040 (rp2040js) running the stock
// MicroPython firmware for RPI_PICO from its UF2, with the 2 MB flash chip
// and the USB serial port.
//
// rp2040js executes the RP2040's instructions and peripherals but its flash
// controller does not carry out erase or program commands. The firmware
// writes flash only through the boot ROM's routines, so those are replaced
// by breakpoints handled here, with the times the flash chip's datasheet
// gives (the CPU waits for them with interrupts off, as on a Pico). Reads of
// the flash go through the XIP cache of xip.mjs, and a miss holds the CPU.

import { RP2040, USBCDC } from "rp2040js";
import { attachXip, XIP_BASE } from "./xip.mjs";

export const FLASH_BYTES = 2 * 1024 * 1024; // W25Q16JV on the Pico
export const FS_OFFSET = 0xa0000; // MicroPython's littlefs for RPI_PICO: the rest of the 2 MB
export const FS_BYTES = FLASH_BYTES - FS_OFFSET;
const CPU_HZ = 125e6; // MicroPython's clock on the RP2040
const NS_PER_CYCLE = 1e9 / CPU_HZ;
// W25Q16JV datasheet, AC characteristics: a sector erase (4 KB) and a page
// program (256 B), typical and maximum
const SECTOR_BYTES = 4096;
const PAGE_BYTES = 256;
export const FLASH_TIMES = {
  typical: { eraseSectorNs: 45e6, programPageNs: 0.4e6 },
  max: { eraseSectorNs: 400e6, programPageNs: 3e6 },
};
// RP2040 datasheet 2.8.3: the ROM's function table (a 16-bit pointer at 0x14,
// entries of a two-letter code and a 16-bit address, ending with code 0)
const ROM_FUNC_TABLE = 0x14;
const FLASH_ROUTINES = ["IF", "EX", "RE", "RP", "FC", "CX"];
const FLUSH_CACHE = 4; // FC: the XIP cache is flushed (the routines write the flash behind it)
const WATCHDOG = 0x40058;
const ROSC = 0x40060;
// RP2040 datasheet 2.17.8, the ring oscillator's registers: rp2040js leaves it out
const ROSC_CTRL_RESET = 0x00fabaa0; // ENABLE = 0xfab, FREQ_RANGE = LOW
const ROSC_STATUS = 0x18;
const ROSC_STABLE_ENABLED = (1 << 31) | (1 << 12);
const ROSC_RANDOMBIT = 0x1c;
const CDC_FIFO = 512; // rp2040js's host-side buffer towards the device
const IDLE_NS = 1e6; // an idle core with no timer armed looks at the world every emulated ms
const HOLD_NOTED_NS = 5e6; // the core busy this long without a pause is noted as a hold
const HOLDS_KEPT = 2000;
const SRAM_BASE = 0x20000000;
// MicroPython's garbage collector keeps a block's kind in 2 bits of its
// allocation table, 4 blocks a byte (py/gc.c: 0 free, 1 head, 2 tail, 3
// marked) over blocks of 16 bytes: the free blocks a byte of the table holds
const GC_BLOCK_BYTES = 16;
const FREE_IN_BYTE = Uint8Array.from({ length: 256 }, (_, v) => [0, 2, 4, 6].filter((k) => ((v >> k) & 3) === 0).length);

function romFunctions(rom) {
  const u16 = (a) => rom[a] | (rom[a + 1] << 8);
  const found = {};
  for (let p = u16(ROM_FUNC_TABLE); u16(p); p += 4) {
    const code = u16(p);
    found[String.fromCharCode(code & 0xff, code >> 8)] = u16(p + 2) & ~1;
  }
  return found;
}

/** The flash routines of the ROM replaced by BKPT #n, n the index in FLASH_ROUTINES. */
export function patchRom(romBytes) {
  const rom = new Uint8Array(romBytes);
  const table = romFunctions(rom);
  FLASH_ROUTINES.forEach((name, n) => {
    if (table[name] === undefined) throw new Error(`the boot ROM has no ${name} routine: not an RP2040 B1 ROM`);
    rom[table[name]] = n;
    rom[table[name] + 1] = 0xbe;
  });
  return new Uint32Array(rom.buffer);
}

/** The payloads of a UF2 file laid out as flash bytes from offset 0. */
export function uf2Image(uf2) {
  const image = new Uint8Array(FS_OFFSET).fill(0xff);
  let blocks = 0;
  for (let off = 0; off + 512 <= uf2.length; off += 512) {
    const v = new DataView(uf2.buffer, uf2.byteOffset + off, 512);
    if (v.getUint32(0, true) !== 0x0a324655 || v.getUint32(4, true) !== 0x9e5d5157) continue;
    const addr = v.getUint32(12, true) - XIP_BASE;
    const size = v.getUint32(16, true);
    if (addr < 0 || addr + size > FS_OFFSET) throw new Error(`UF2 block at 0x${addr.toString(16)} is outside the firmware's part of the flash`);
    image.set(uf2.subarray(off + 32, off + 32 + size), addr);
    blocks++;
  }
  if (!blocks) throw new Error("not a UF2 file");
  return image;
}

// RP2040 datasheet 2.3.1.7 and 2.8.2: the FIFOs between the two cores, which
// rp2040js leaves out. Core 1 never runs user code here; what it does from
// its boot ROM is modelled: released from reset (PSM FRCE_OFF.PROC1 cleared)
// it pushes a 0, and it echoes every word of the launch handshake.
const SIO_FIFO_ST = 0x50;
const SIO_FIFO_VLD = 1;
const SIO_FIFO_RDY = 2;
const SIO_FIFO_WR = 0x54;
const SIO_FIFO_RD = 0x58;
const PSM = 0x40010;
const PSM_FRCE_OFF = 0x04;
const PSM_PROC1 = 1 << 16;

function core1(mcu) {
  const fifo = [];
  const { sio } = mcu;
  const read = sio.readUint32.bind(sio);
  const write = sio.writeUint32.bind(sio);
  sio.readUint32 = (offset) => {
    if (offset === SIO_FIFO_ST) return SIO_FIFO_RDY | (fifo.length ? SIO_FIFO_VLD : 0);
    if (offset === SIO_FIFO_RD) return fifo.shift() ?? 0;
    return read(offset);
  };
  sio.writeUint32 = (offset, value) => (offset === SIO_FIFO_WR ? fifo.push(value) : write(offset, value));
  const psm = mcu.peripherals[PSM];
  const psmWrite = psm.writeUint32.bind(psm);
  psm.writeUint32 = (offset, value) => {
    const held = psm.frceOff & PSM_PROC1;
    psmWrite(offset, value);
    if (offset === PSM_FRCE_OFF && held && !(psm.frceOff & PSM_PROC1)) {
      fifo.length = 0;
      fifo.push(0);
    }
  };
}

// RP2040 datasheet 3.5.5 and 3.4: a PIO state machine executes one instruction
// per cycle of its clock, the system clock divided by CLKDIV (INT + FRAC/256,
// INT 0 meaning 65536), plus the instruction's delay cycles; one stalled on an
// empty TX FIFO (or a full RX FIFO) resumes when the FIFO moves. rp2040js steps
// the state machines from a host timer, unrelated to the emulated clock; here an
// alarm of the emulated clock steps each one when its next cycle is due, so the
// pins it drives change at their emulated times, CPU, DMA and flash waits alike.
const STALLS_ON_FIFO = new Set([2, 3, 5]); // rp2040js's WaitType rxFIFO, txFIFO, Out (autopull)

function clockPio(mcu) {
  const { clock } = mcu;
  const state = new Map(); // state machine -> { due (ns), running }
  const period = (sm) => ((sm.clockDivInt || 65536) + sm.clockDivFrac / 256) * NS_PER_CYCLE;
  const alarm = clock.createAlarm(() => {
    const now = clock.nanos;
    for (const [sm, s] of state) {
      if (!s.running || s.due > now) continue;
      if (!sm.enabled) {
        s.running = false;
        continue;
      }
      const before = sm.cycles;
      sm.step();
      sm.pio.checkChangedPins();
      if (sm.waiting && STALLS_ON_FIFO.has(sm.waitType)) s.running = false;
      else s.due += Math.max(1, sm.cycles - before) * period(sm);
    }
    schedule();
  });
  function schedule() {
    let next = Infinity;
    for (const s of state.values()) if (s.running && s.due < next) next = s.due;
    if (next === Infinity) alarm.cancel();
    else alarm.schedule(Math.max(0, next - clock.nanos));
  }
  for (const pio of mcu.pio) {
    pio.run = () => {};
    for (const sm of pio.machines) state.set(sm, { due: 0, running: false });
    // a register access can enable a machine, feed or drain its FIFO (which
    // may complete a stalled instruction at once), or execute an instruction
    const wrap = (access) => (...args) => {
      const before = pio.machines.map((sm) => [sm.cycles, sm.waiting]);
      const result = access(...args);
      pio.checkChangedPins();
      pio.machines.forEach((sm, i) => {
        const s = state.get(sm);
        if (!sm.enabled || s.running) return;
        const [cycles, waited] = before[i];
        s.running = true;
        // a stall that ended here: the instruction's cycle and its delay, then the next
        s.due = clock.nanos + (waited && !sm.waiting ? 1 + sm.cycles - cycles : 0) * period(sm);
      });
      schedule();
      return result;
    };
    pio.writeUint32 = wrap(pio.writeUint32.bind(pio));
    pio.readUint32 = wrap(pio.readUint32.bind(pio));
  }
}

// A xorshift generator: the ring oscillator's random bit, the same sequence at every boot of a run
function randomBits(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x & 1;
  };
}

/**
 * One Pico. `firmware` is uf2Image(), `fs` the filesystem part of the flash
 * (FS_BYTES, kept and written in place: it survives resets and power cuts).
 * `onBoot(mcu)` wires the board to each new RP2040; `onSerial(bytes)` gets
 * what the Pico prints; `onReset(cause)` is told of every start.
 * `flashTimes` is "typical" or "max": the flash chip's erase and program times.
 */
export class Pico {
  constructor({ rom, firmware, fs, seed = 1, flashTimes = "typical", onBoot = () => {}, onSerial = () => {}, onReset = () => {}, onFlashWrite = () => {} }) {
    if (!FLASH_TIMES[flashTimes]) throw new Error(`flash times must be one of ${Object.keys(FLASH_TIMES).join(", ")}`);
    this.flashTimes = FLASH_TIMES[flashTimes];
    this.rom = patchRom(rom);
    this.firmware = firmware;
    this.fs = fs;
    this.random = randomBits(seed);
    this.onBoot = onBoot;
    this.onSerial = onSerial;
    this.onReset = onReset;
    this.onFlashWrite = onFlashWrite;
    this.cutAfterWrites = null; // the power goes just before that many more flash writes are done
    this.cutTorn = null; // or inside the write it goes at, that fraction of its bytes done
    this.flashOps = { erases: 0, programs: 0 };
    this.input = []; // bytes from the host not yet taken by the USB port
    this.mcu = null;
    this.pendingReset = null;
    this.boots = 0;
  }

  /** Power on (cause "power") or restart after a reset. The watchdog's
   * REASON and scratch registers survive a reset by the watchdog or
   * machine.reset() ("watchdog", "reset"), not a power cut or the RUN pin. */
  boot(cause = "power") {
    const old = this.mcu?.peripherals[WATCHDOG];
    const mcu = new RP2040();
    mcu.logger = { debug() {}, info() {}, warn() {}, error: (name, msg) => process.stderr.write(`vpico: ${name}: ${msg}\n`) };
    mcu.loadBootrom(this.rom);
    mcu.flash.set(this.firmware, 0);
    mcu.flash.set(this.fs, FS_OFFSET);
    const watchdog = mcu.peripherals[WATCHDOG];
    if (old && (cause === "watchdog" || cause === "reset")) {
      watchdog.reason = old.reason;
      watchdog.scratchData.set(old.scratchData);
    }
    watchdog.onWatchdogTrigger = () => {
      // the chip resets: its watchdog stops (rp2040js's would fire again and again at 0)
      watchdog.alarm.enable = false;
      this.reset(watchdog.reason & 1 ? "watchdog" : "reset");
    };
    mcu.peripherals[ROSC] = this.rosc(mcu.peripherals[ROSC]);
    core1(mcu);
    clockPio(mcu);
    this.xip = attachXip(mcu, NS_PER_CYCLE);
    mcu.onBreak = (code) => this.flashRoutine(code);
    mcu.core.PC = XIP_BASE;
    const cdc = new USBCDC(mcu.usbCtrl);
    // A USB host sends an OUT packet only when it has bytes to send (else the
    // transfer waits); rp2040js's host answers at once with an empty packet,
    // which keeps an idle Pico busy receiving nothing.
    const hostRead = mcu.usbCtrl.onEndpointRead;
    this.outWaiting = null;
    mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
      if (cdc.txFIFO.itemCount || endpoint === 0) hostRead(endpoint, size);
      else this.outWaiting = () => hostRead(endpoint, size);
    };
    cdc.onSerialData = (bytes) => this.onSerial(Buffer.from(bytes));
    cdc.onDeviceConnected = () => {
      this.connected = true;
    };
    this.connected = false;
    this.input = [];
    this.cdc = cdc;
    this.mcu = mcu;
    this.pendingReset = null;
    this.heap = null; // the watch of watchHeap, for this start only
    this.holds = []; // [start, end] in ns of each stretch of HOLD_NOTED_NS or more the core ran without a pause
    this.busyFrom = 0;
    this.boots++;
    this.onBoot(mcu, cause);
    this.onReset(cause);
  }

  /** The ring oscillator: running, and its random bit (pico_rand and os.urandom read it). */
  rosc(peripheral) {
    const regs = new Map([[0, ROSC_CTRL_RESET]]);
    peripheral.readUint32 = (offset) => {
      if (offset === ROSC_STATUS) return ROSC_STABLE_ENABLED >>> 0;
      if (offset === ROSC_RANDOMBIT) return this.random();
      return regs.get(offset) ?? 0;
    };
    peripheral.writeUint32 = (offset, value) => regs.set(offset, value);
    return peripheral;
  }

  /** A reset the device asked for (watchdog, machine.reset()): done between two instructions. */
  reset(cause) {
    this.pendingReset = cause;
  }

  get nanos() {
    return this.mcu.clock.nanos;
  }

  flashRoutine(code) {
    const { mcu } = this;
    const r = mcu.core.registers;
    const name = FLASH_ROUTINES[code];
    if (name === undefined) {
      // a breakpoint in the firmware itself: a real Pico without a debugger takes a HardFault
      process.stderr.write(`vpico: BKPT ${code} at 0x${mcu.core.PC.toString(16)}\n`);
      return;
    }
    let done; // bytes of the write done: all, but at a power cut
    if ((name === "RE" || name === "RP") && this.cutAfterWrites !== null && this.cutAfterWrites-- === 0) {
      this.cutAfterWrites = null;
      this.reset("power");
      // W25Q16JV datasheet: an erase or page program cut by a power loss leaves the bytes it was
      // changing undefined. Modelled as a prefix of the call's bytes done (the sectors or pages
      // before the torn one whole), the rest as it was; not torn, the write never happens.
      done = Math.floor((this.cutTorn ?? 0) * (r[name === "RE" ? 1 : 2] >>> 0));
      this.cutTorn = null;
    }
    if (name === "RE") this.erase(r[0] >>> 0, r[1] >>> 0, done);
    else if (name === "RP") this.program(r[0] >>> 0, r[1] >>> 0, r[2] >>> 0, done);
    else if (code === FLUSH_CACHE) {
      this.xip.flush();
      this.xip.waitForFlush(); // the routine reads FLUSH back, which waits for it
    }
    mcu.core.PC = mcu.core.LR & ~1;
    mcu.core.breakRewind = 0;
  }

  /** Erase `count` bytes at `offset` (only the first `done` if the power goes during it). */
  erase(offset, count, done = count) {
    this.check(offset, count);
    this.mcu.flash.fill(0xff, offset, offset + done);
    this.fs.fill(0xff, offset - FS_OFFSET, offset - FS_OFFSET + done);
    this.wrote("erases", done / SECTOR_BYTES, this.flashTimes.eraseSectorNs);
  }

  program(offset, data, count, done = count) {
    this.check(offset, count);
    const { mcu } = this;
    for (let i = 0; i < done; i++) {
      // programming only clears bits, as NOR flash does
      const byte = mcu.flash[offset + i] & mcu.readUint8(data + i);
      mcu.flash[offset + i] = byte;
      this.fs[offset - FS_OFFSET + i] = byte;
    }
    this.wrote("programs", done / PAGE_BYTES, this.flashTimes.programPageNs);
  }

  /** `units` sectors or pages written (a torn one counts, not one left untouched), each taking `ns`. */
  wrote(kind, units, ns) {
    units = Math.ceil(units);
    this.flashOps[kind] += units;
    if (units) this.onFlashWrite();
    this.mcu.clock.tick(units * ns);
  }

  check(offset, count) {
    if (offset < FS_OFFSET || offset + count > FLASH_BYTES) {
      throw new Error(`flash write at 0x${offset.toString(16)} (+${count}) outside the filesystem`);
    }
  }

  /** The core ran from `start` to `end` (ns) without a pause (WFE or WFI): a
   * loop that holds it long holds every frame of an animation as long. */
  held(start, end) {
    if (end - start < HOLD_NOTED_NS) return;
    if (this.holds.length === HOLDS_KEPT) this.holds.shift();
    this.holds.push([start, end]);
  }

  /** Watch MicroPython's heap: its allocation table, `length` bytes at
   * `start` in RAM, followed through every write to it, and the free blocks
   * counted each time a collection ends (the firmware returns from
   * `collectEnd`, the address of its gc_collect_end): a step's peak of live
   * objects is there at its collection, whatever the step. The fewest free
   * blocks found so, a copy of the table then, and when. A table found all
   * free again (the heap made anew: a soft reset) starts the watch over. */
  watchHeap(start, length, collectEnd) {
    const { mcu } = this;
    const table = mcu.sram.subarray(start - SRAM_BASE, start - SRAM_BASE + length);
    const heap = { free: table.reduce((n, v) => n + FREE_IN_BYTE[v], 0), collectEnd, returnTo: -1 };
    heap.lowest = Infinity;
    heap.lowestAt = 0;
    heap.table = table.slice();
    heap.collected = () => {
      heap.returnTo = -1;
      if (heap.free < heap.lowest) {
        heap.lowest = heap.free;
        heap.lowestAt = mcu.clock.nanos;
        heap.table.set(table);
      }
    };
    this.heap = heap;
    const end = start + length;
    for (const [name, bytes] of [["writeUint8", 1], ["writeUint16", 2], ["writeUint32", 4]]) {
      const write = mcu[name];
      mcu[name] = (a, v) => {
        const first = Math.max(a >>> 0, start);
        const last = Math.min((a >>> 0) + bytes, end);
        if (first >= last) return write(a, v);
        for (let b = first; b < last; b++) heap.free -= FREE_IN_BYTE[table[b - start]];
        write(a, v);
        for (let b = first; b < last; b++) heap.free += FREE_IN_BYTE[table[b - start]];
        if (heap.free === length * 4) heap.lowest = Infinity;
        return undefined;
      };
    }
  }

  /** Where the core is about to run `pc`: a collection of the watched heap begins its end or is over. */
  heapAt(pc) {
    const { heap } = this;
    if (pc === heap.collectEnd) heap.returnTo = this.mcu.core.LR & ~1;
    else if (pc === heap.returnTo) heap.collected();
  }

  /** The watched heap at its lowest after a collection: free bytes, the
   * largest run of free blocks in bytes, when (ns); null before the first. */
  heapLow() {
    const { heap } = this;
    if (heap.lowest === Infinity) return null;
    let run = 0;
    let largest = 0;
    for (const v of heap.table) {
      for (let k = 0; k < 8; k += 2) {
        run = (v >> k) & 3 ? 0 : run + 1;
        largest = Math.max(largest, run);
      }
    }
    return { free: heap.lowest * GC_BLOCK_BYTES, largest: largest * GC_BLOCK_BYTES, at: heap.lowestAt };
  }

  /** Bytes typed on the USB serial port. */
  write(bytes) {
    for (const b of bytes) this.input.push(b);
  }

  /** Run until the clock reaches `untilNanos` or about `maxCycles` have run. */
  run(untilNanos, maxCycles = 2e6) {
    let cycles = 0;
    // (a block's steps count too: a stuck emulator must still let the world outside look in)
    for (let block = 0; cycles < maxCycles && block < maxCycles / 1000; block++) {
      const { mcu } = this;
      const { core, clock } = mcu;
      if (this.connected) {
        const fifo = this.cdc.txFIFO;
        while (this.input.length && fifo.itemCount < CDC_FIFO) fifo.push(this.input.shift());
        if (fifo.itemCount && this.outWaiting) {
          const send = this.outWaiting;
          this.outWaiting = null;
          send();
        }
      }
      // a block of instructions between two looks at the world outside
      for (let i = 0; i < 5000; i++) {
        if (clock.nanos >= untilNanos) return;
        if (core.waiting) {
          if (this.busyFrom !== null) this.held(this.busyFrom, clock.nanos);
          this.busyFrom = null;
          // asleep (WFE/WFI) until the next timer event, or a host's byte
          // (0 when no alarm is armed; below 0 when one is already due: it fires now)
          const next = clock.nanosToNextAlarm || IDLE_NS;
          const wait = Math.max(0, Math.min(next, untilNanos - clock.nanos));
          clock.tick(wait);
          cycles += 1 + wait / NS_PER_CYCLE;
          if (this.input.length) break;
        } else {
          // the instruction's own cycles, and those it waited on the flash
          const { xip } = this;
          if (this.busyFrom === null) this.busyFrom = clock.nanos;
          if (this.heap) this.heapAt(core.PC);
          xip.stall = 0;
          const n = core.executeInstruction() + xip.stall;
          clock.tick(n * NS_PER_CYCLE);
          cycles += n;
        }
        if (this.pendingReset) {
          this.boot(this.pendingReset);
          break;
        }
      }
    }
  }
}
