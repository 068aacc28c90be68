// The parts around the Pico, each modelled from its datasheet and from the
// wiring in hardware/README.md, never from the firmware that reads them: a
// mismatch between the two then shows as a wrong reading on the emulated board.
//
// Every part sees the emulated RP2040 at its pins only: the levels the
// firmware drives (pin listeners, timed by the emulated clock) and the levels
// it reads (setInputValue). rp2040js does not model the pads' pull resistors,
// so a `Line` works out what an input reads: a part driving it, else a
// closed contact to GND, else the pull resistor the pad has enabled.

const HIGH = 1; // rp2040js GPIOPinState.High
const PULL_UP = 3; // GPIOPinState.InputPullUp
const PULL_DOWN = 4; // GPIOPinState.InputPullDown

/** One GPIO net: who drives it, and what the Pico's input reads. */
export class Line {
  constructor(gpio) {
    this.gpio = gpio;
    this.pin = null;
    this.state = null;
    this.drivers = []; // () => 0, 1 or null (not driving)
    this.listeners = []; // (level, nanos) on the level the Pico drives
  }

  attach(mcu) {
    this.pin = mcu.gpio[this.gpio];
    this.clock = mcu.clock;
    this.state = this.pin.value;
    this.pin.addListener((state) => {
      this.state = state;
      if (this.pin.outputEnable) for (const l of this.listeners) l(state === HIGH ? 1 : 0, this.clock.nanos);
      else this.update();
    });
    this.update();
  }

  /** The level on the wire as the Pico's input buffer sees it. */
  level() {
    for (const d of this.drivers) {
      const v = d();
      if (v !== null) return v;
    }
    if (this.state === PULL_UP) return 1;
    if (this.state === PULL_DOWN) return 0;
    return 0; // floating: an input left open reads whatever it picks up; here low
  }

  update() {
    if (this.pin) this.pin.setInputValue(this.level() === 1);
  }
}

// ---- WS2812B ------------------------------------------------------------------------
// Worldsemi WS2812B datasheet: a 0 is a high of T0H = 0.4 us, a 1 a high of
// T1H = 0.8 us, each +-150 ns; 24 bits per pixel, G then R then B, most
// significant bit first; each pixel keeps the first 24 bits and passes the
// rest on; a low of at least 50 us (RES) latches what was sent. That is the
// first datasheet's figure; current parts need 280 us and may merge two frames
// a shorter low apart. The chain shows every frame a 50 us low ends, with the
// time of its last falling edge, so a test can measure the low between frames.
const T0H = 400;
const T1H = 800;
const TOLERANCE = 150;
const RES_NS = 50000;

export class WS2812BChain {
  /** `onFrame({bytes, startNs, endNs, latchNs, errors})` at every latch (endNs: the last bit's falling edge). */
  constructor(line, count, onFrame) {
    this.count = count;
    this.shown = new Uint8Array(3 * count); // G, R, B of every pixel, as lit
    this.onFrame = onFrame;
    this.reset();
    line.listeners.push((level, nanos) => this.edge(level, nanos));
    this.line = line;
  }

  reset() {
    this.bits = [];
    this.errors = [];
    this.rose = null;
    this.start = null;
    this.end = null;
    this.alarm = null;
  }

  edge(level, nanos) {
    if (level === 1) {
      this.alarm?.cancel();
      this.rose = nanos;
      this.start ??= nanos;
      return;
    }
    if (this.rose === null) return;
    const high = nanos - this.rose;
    this.rose = null;
    this.end = nanos;
    if (Math.abs(high - T0H) <= TOLERANCE) this.bits.push(0);
    else if (Math.abs(high - T1H) <= TOLERANCE) this.bits.push(1);
    else {
      this.errors.push(`bit ${this.bits.length}: high for ${Math.round(high)} ns, neither 0.4 nor 0.8 us +-150 ns`);
      this.bits.push(high > (T0H + T1H) / 2 ? 1 : 0);
    }
    this.alarm ??= this.line.clock.createAlarm(() => this.latch());
    this.alarm.schedule(RES_NS);
  }

  latch() {
    const { bits, errors } = this;
    if (bits.length % 24) errors.push(`${bits.length} bits: not a whole number of 24-bit pixels`);
    const bytes = new Uint8Array(bits.length >> 3);
    for (let i = 0; i < bytes.length * 8; i++) bytes[i >> 3] |= bits[i] << (7 - (i & 7));
    this.shown.set(bytes.subarray(0, this.shown.length));
    this.onFrame({ bytes, startNs: this.start, endNs: this.end, latchNs: this.line.clock.nanos, errors });
    this.reset();
  }
}

// ---- 74HC165 --------------------------------------------------------------------------
// TI SN74HC165 datasheet, function table: SH/LD low loads A-H into the
// register (asynchronously, for as long as it is low); with SH/LD high and
// CLK INH low a rising CLK shifts: QA takes SER, QB takes QA, ... QH takes QG.
// QH (pin 9) is the last stage. CLK INH is tied to GND on our board.
//
// The chain as hardware/README.md wires it: chip 0's QH goes to the Pico's
// sensor_data pin, chip k's SER takes chip k+1's QH, the last chip's SER is
// tied to 3.3 V. Sensor n is input A + (n mod 8) of chip n div 8. A switch
// closed by a piece pulls its input to GND; the 10 kOhm pull-up holds an open
// one at 3.3 V. `order` is a miswired board's: the chip at each place of the
// chain, counted from the Pico (chips swapped in the chain keep their switches).
export class HC165Chain {
  constructor(latch, clock, data, chips, order = null) {
    this.order = order ?? [...Array(chips).keys()];
    this.inputs = new Uint8Array(chips * 8).fill(1);
    this.reg = new Uint8Array(chips * 8); // chip k's stage A..H at 8k..8k+7
    this.chips = chips;
    this.loading = false;
    this.data = data;
    data.drivers.push(() => this.reg[7]); // chip 0's QH
    latch.listeners.push((level) => {
      this.loading = level === 0;
      if (this.loading) this.load();
    });
    clock.listeners.push((level) => {
      if (level === 1 && !this.loading) this.shift();
    });
  }

  load() {
    this.order.forEach((chip, k) => this.reg.set(this.inputs.subarray(8 * chip, 8 * chip + 8), 8 * k));
    this.data.update();
  }

  shift() {
    const { reg } = this;
    for (let k = 0; k < this.chips; k++) {
      for (let s = 7; s > 0; s--) reg[8 * k + s] = reg[8 * k + s - 1];
      reg[8 * k] = k + 1 < this.chips ? reg[8 * (k + 1) + 7] : 1; // SER: the next chip's QH, or 3.3 V
    }
    // the shift above ran from chip 0 up, so chip k read chip k+1's QH before it moved: as one clock edge does
    this.data.update();
  }

  set(sensor, level) {
    this.inputs[sensor] = level;
    if (this.loading) this.load();
  }
}

// ---- contacts ---------------------------------------------------------------------------
// A push button or a wheel's position contact between a GPIO and GND. A
// tactile switch's contacts bounce for up to a few ms when they close and
// open (5 ms is the usual datasheet maximum, e.g. Omron B3F); the model
// chatters at irregular intervals and is at rest BOUNCE_NS after it began,
// the same pattern each run.
const BOUNCE_NS = 5e6;

export class Contact {
  constructor(line, scheduler, seed) {
    this.closed = false;
    this.target = false; // where the contact ends once what is scheduled has happened
    this.line = line;
    this.scheduler = scheduler;
    this.seed = seed;
    line.drivers.push(() => (this.closed ? 0 : null));
  }

  set(closed) {
    this.closed = closed;
    this.line.update();
  }

  /** Close (or open) the contact at `atNs`, bouncing on the way. */
  move(atNs, closed, bounce = true) {
    this.target = closed;
    let t = atNs;
    if (bounce) {
      let x = (this.seed = (this.seed * 1103515245 + 12345) >>> 0);
      let state = closed;
      while (t - atNs < BOUNCE_NS) {
        this.scheduler.at(t, ((s) => () => this.set(s))(state));
        x = (x * 1103515245 + 12345) >>> 0;
        t += 50e3 + (x % 700e3); // 50 us to 0.75 ms between flips
        state = !state;
      }
    }
    t = Math.min(t, atNs + BOUNCE_NS); // at rest within the datasheet's bounce time
    this.scheduler.at(t, () => this.set(closed));
    return t;
  }
}

/** A Detour wheel: four click positions read by contacts a and b as the
 * Gray code of hardware/README.md (positions 0-3 read a b = 00, 01, 11, 10,
 * a 0 being a closed contact). */
const GRAY = [[0, 0], [0, 1], [1, 1], [1, 0]];

export class Wheel {
  constructor(a, b) {
    this.contacts = [a, b];
    this.position = 0;
    for (const c of this.contacts) {
      c.target = true;
      c.set(true);
    }
  }

  /** Turn by `quarters` (negative: the other way), one click every `clickNs`;
   * returns when the last contact has stopped bouncing. */
  turn(atNs, quarters, clickNs) {
    let t = atNs;
    let end = atNs;
    for (let i = 0; i < Math.abs(quarters); i++) {
      this.position = (this.position + Math.sign(quarters) + 4) % 4;
      GRAY[this.position].forEach((level, k) => {
        const contact = this.contacts[k];
        // one contact changes per click; the other stays put
        if (contact.target !== (level === 0)) end = contact.move(t, level === 0);
      });
      t += clickNs;
    }
    return end;
  }
}

/** A pocket's IR break-beam receiver: an open-collector output that pulls
 * its line low while a counter breaks the beam (clean edges: no bounce). */
export class Beam {
  constructor(line, scheduler) {
    this.blocked = false;
    this.line = line;
    this.scheduler = scheduler;
    line.drivers.push(() => (this.blocked ? 0 : null));
  }

  pulse(atNs, widthNs) {
    this.scheduler.at(atNs, () => this.set(true));
    this.scheduler.at(atNs + widthNs, () => this.set(false));
    return atNs + widthNs;
  }

  set(blocked) {
    this.blocked = blocked;
    this.line.update();
  }
}
