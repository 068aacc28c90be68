// The board around the Pico: its parts (parts.mjs) on the GPIOs that
// hardware/pins.json gives each role, sized by the board file: the NeoPixel
// chain, the 74HC165 chain of piece sensors, the die buttons, the Detour
// wheels' contacts, Tiddlee Snuka's pocket beams. The pieces and the wheels
// stay where they are when the Pico resets; only the Pico restarts.

import { Beam, Contact, HC165Chain, Line, WS2812BChain, Wheel } from "./parts.mjs";

const KEEP_FRAMES = 2000;

/** Actions at given board times (ns), carried out between two instructions. */
class Scheduler {
  constructor(board) {
    this.board = board;
    this.queue = [];
    this.seq = 0;
    this.alarm = null;
  }

  at(t, fn) {
    this.queue.push({ t, seq: this.seq++, fn });
    this.queue.sort((a, b) => a.t - b.t || a.seq - b.seq);
    this.arm();
  }

  arm() {
    const { mcu } = this.board;
    if (!mcu || !this.queue.length) return;
    this.alarm ??= mcu.clock.createAlarm(() => this.fire());
    this.alarm.schedule(Math.max(0, this.queue[0].t - this.board.now()));
  }

  fire() {
    const now = this.board.now();
    while (this.queue.length && this.queue[0].t <= now) this.queue.shift().fn();
    this.arm();
  }

  attach() {
    this.alarm = null;
    this.arm();
  }
}

export class Board {
  /** `pins`: role -> GPIO (hardware/pins.json); `board`: the board file; `swap`: two
   * chips of the 74HC165 chain soldered in each other's place, or null. */
  constructor(pins, board, swap = null) {
    this.pins = pins;
    this.lines = new Map();
    this.mcu = null;
    this.base = 0; // board time (ns) when the Pico last started
    this.scheduler = new Scheduler(this);
    this.frames = [];
    this.frameCount = 0;
    this.boots = 0;
    this.pixelErrors = 0;
    this.onFrame = () => {};
    this.pixels = new WS2812BChain(this.line("pixels"), board.pixels, (f) => this.frame(f));
    let seed = 1;
    this.buttons = {};
    for (const role of ["die1", "die2"]) this.buttons[role] = new Contact(this.line(role), this.scheduler, seed++);
    this.chain = null;
    if (pins.sensor_data !== undefined) {
      const chips = Math.ceil(board.sensors / 8);
      const order = [...Array(chips).keys()];
      if (swap) [order[swap[0]], order[swap[1]]] = [order[swap[1]], order[swap[0]]];
      this.chain = new HC165Chain(this.line("sensor_latch"), this.line("sensor_clock"), this.line("sensor_data"),
        chips, order);
    }
    this.wheels = [];
    const wheels = Array.isArray(board.wheels) ? board.wheels.length : 0;
    for (let w = 1; w <= wheels && pins[`wheel${w}_a`] !== undefined; w++) {
      const contact = (role) => new Contact(this.line(role), this.scheduler, seed++);
      this.wheels.push(new Wheel(contact(`wheel${w}_a`), contact(`wheel${w}_b`)));
    }
    this.beams = [];
    const pockets = (board.spaces || []).filter((s) => s.kind === "pocket").length;
    for (let p = 1; p <= pockets && pins[`beam${p}`] !== undefined; p++) {
      this.beams.push(new Beam(this.line(`beam${p}`), this.scheduler));
    }
  }

  line(role) {
    const gpio = this.pins[role];
    if (gpio === undefined) throw new Error(`hardware/pins.json has no role ${role}`);
    if (!this.lines.has(gpio)) this.lines.set(gpio, new Line(gpio));
    return this.lines.get(gpio);
  }

  /** A new RP2040 started at board time `base`: wire it up. */
  attach(mcu, base) {
    this.mcu = mcu;
    this.base = base;
    this.boots++;
    this.pixels.reset();
    for (const line of this.lines.values()) line.attach(mcu);
    this.scheduler.attach();
  }

  /** Board time in ns. */
  now() {
    return this.base + (this.mcu ? this.mcu.clock.nanos : 0);
  }

  frame({ bytes, startNs, endNs, latchNs, errors }) {
    this.pixelErrors += errors.length;
    const frame = {
      n: this.frameCount++, boot: this.boots, start_ms: startNs / 1e6, end_ms: endNs / 1e6, t_ms: latchNs / 1e6,
      board_ms: this.now() / 1e6,
      hex: Buffer.from(bytes).toString("hex"), errors,
    };
    this.frames.push(frame);
    if (this.frames.length > KEEP_FRAMES) this.frames.splice(0, this.frames.length - KEEP_FRAMES);
    this.onFrame(frame);
  }
}
