#!/usr/bin/env node
// The virtual Pico: the stock MicroPython firmware on an emulated RP2040
// (machine.mjs) on the board of parts.mjs / board.mjs. Its USB serial port is
// this process's stdin and stdout (host/pico/vpico/__init__.py puts a
// pseudo-terminal on them for mpremote); a control socket lets tests and
// tools act on the board and read what the pixels showed.
//
//   node host/pico/vpico/main.mjs --rom ROM --uf2 UF2 --fs IMAGE --pins PINS_JSON --board BOARD_JSON
//        --control SOCKET [--flash-times typical|max] [--swap-chips J,K]
//
// IMAGE is the filesystem part of the flash (created blank if missing; the
// firmware formats it at its first boot); it is written back on `save_fs`,
// on exit and a moment after the Pico last wrote its flash. `--swap-chips J,K`
// builds a miswired board: chips J and K of the 74HC165 chain in each other's place.
//
// Times are ms: `*_ms` of the Pico are since its last start (its ticks_ms),
// `board_ms` since the board was switched on (it goes on across resets).
// The control socket speaks JSON lines, one request and one answer each:
//   {"op": "status"}                          boots (their causes), now_ms, board_ms, frames, flash writes,
//                                             the XIP cache's hits, accesses and misses, a line fill's cycles, ...
//   {"op": "frames", "since": N}              the frames numbered N and later (the last 2000 kept): n, boot,
//                                             start_ms (first edge), end_ms (last edge), t_ms (latched), hex (wire bytes), errors
//   {"op": "wait_frame", "since": N, "timeout_ms": T}  the first frame numbered N or later (T of wall time)
//   {"op": "wait", "ms": M}                   answers once M ms of the Pico's time have passed
//   {"op": "press"|"release", "role": "die1", "at_ms": T}   a die button, bouncing (at the Pico's T; now if left out)
//   {"op": "sensor", "index": N, "closed": true|false, "at_ms": T}  a piece on (closed) or off sensor N
//   {"op": "turn", "wheel": W, "quarters": Q, "click_ms": C, "at_ms": T}  wheel W (0-3) by Q clicks
//   {"op": "beam", "pocket": P, "width_ms": D, "at_ms": T}  pocket P's beam broken for D ms
//   {"op": "holds", "since_ms": T}            the stretches of 5 ms or more in which the Pico's core ran
//                                             without a pause (WFE/WFI) since its T: [start_ms, end_ms], ...
//   {"op": "heap_watch", "start": A, "length": N, "collect_end": E}  from now on, every write to the
//                                             garbage collector's allocation table (N bytes at RAM address A)
//                                             is followed, and the free blocks counted as each collection ends
//                                             (the firmware returns from its gc_collect_end at E)
//   {"op": "heap_low"}                        the heap at its fewest free blocks after a collection since:
//                                             free and largest_block (bytes), at_ms; null before one ended
//   {"op": "pixels"}                          the colours lit now, hex G R B per pixel
//   {"op": "reset"}                           the reset button (RUN pin)
//   {"op": "power_cut", "off_ms": M, "after_writes": K, "torn": F}  off for M ms, now or just before
//                                             the (K+1)th flash write (erase or program) from now; with
//                                             F (0 to 1), inside it instead: that fraction of its bytes done
//   {"op": "save_fs"}                         write the filesystem image to IMAGE now
// Answers carry "now_ms" and "board_ms"; an error answers {"error": "..."}.

import fs from "node:fs";
import net from "node:net";
import { Board } from "./board.mjs";
import { FS_BYTES, Pico, uf2Image } from "./machine.mjs";
import { transferCycles } from "./xip.mjs";

const USAGE = "usage: node host/pico/vpico/main.mjs --rom ROM --uf2 UF2 --fs IMAGE --pins PINS_JSON --board BOARD_JSON --control SOCKET [--flash-times typical|max] [--swap-chips J,K]";
const CHUNK_CYCLES = 1e6; // between two looks at the socket and the serial input: 8 ms of the Pico's time
const SAVE_AFTER_MS = 500;
const CATCH_UP_NS = 20e6; // how far the Pico's clock may lag before the lag is forgotten // wall time after the last flash write before the image is written back

function die(msg) {
  process.stderr.write(`vpico: ${msg}\n`);
  process.exit(2);
}

const args = {};
const argv = process.argv.slice(2);
while (argv.length) {
  const opt = argv.shift();
  const value = argv.shift() ?? die(`${opt} needs a value\n${USAGE}`);
  const key = { "--rom": "rom", "--uf2": "uf2", "--fs": "fs", "--pins": "pins", "--board": "board", "--control": "control", "--flash-times": "flashTimes", "--swap-chips": "swapChips" }[opt];
  if (!key) die(`unknown option ${opt}\n${USAGE}`);
  args[key] = value;
}
for (const key of ["rom", "uf2", "fs", "pins", "board", "control"]) if (!args[key]) die(USAGE);

const read = (path, what) => {
  try {
    return fs.readFileSync(path);
  } catch (e) {
    return die(`cannot read the ${what} ${path}: ${e.message}`);
  }
};
const image = fs.existsSync(args.fs) ? new Uint8Array(read(args.fs, "filesystem image")) : new Uint8Array(FS_BYTES).fill(0xff);
if (image.length !== FS_BYTES) die(`${args.fs} is ${image.length} bytes; a Pico's filesystem image is ${FS_BYTES}`);
const swap = args.swapChips ? args.swapChips.split(",").map(Number) : null;
if (swap && (swap.length !== 2 || !swap.every(Number.isInteger))) die(`--swap-chips takes two chip numbers, J,K`);
const board = new Board(JSON.parse(read(args.pins, "pin map")), JSON.parse(read(args.board, "board file")), swap);
const boots = [];
let offNs = 0; // how long the board was without power before this start
let dirty = null;

const pico = new Pico({
  rom: read(args.rom, "boot ROM"),
  firmware: uf2Image(read(args.uf2, "MicroPython UF2")),
  fs: image,
  flashTimes: args.flashTimes ?? "typical",
  onBoot: (mcu) => {
    board.attach(mcu, board.now() + offNs);
    offNs = 0;
  },
  onSerial: (bytes) => process.stdout.write(bytes),
  onReset: (cause) => boots.push(cause),
  onFlashWrite: () => {
    clearTimeout(dirty);
    dirty = setTimeout(saveFs, SAVE_AFTER_MS);
  },
});

function saveFs() {
  // whole or not at all: a reader of the image (VirtualPico.files) never sees it half written
  fs.writeFileSync(args.fs + ".new", pico.fs);
  fs.renameSync(args.fs + ".new", args.fs);
}

// ---- the control socket ----------------------------------------------------------------
const nowMs = () => pico.nanos / 1e6;
let frameWaiters = [];
let timeWaiters = [];
board.onFrame = (frame) => {
  const ready = frameWaiters.filter((w) => frame.n >= w.since);
  frameWaiters = frameWaiters.filter((w) => frame.n < w.since);
  for (const w of ready) w.answer({ frame });
};

function atNs(req) {
  if (req.at_ms === undefined) return board.now();
  if (typeof req.at_ms !== "number") throw new Error("at_ms must be a number");
  return board.base + req.at_ms * 1e6;
}
function integer(req, key, lo, hi) {
  const v = req[key];
  if (!Number.isInteger(v) || v < lo || v > hi) throw new Error(`${key} must be an integer from ${lo} to ${hi}`);
  return v;
}
function positive(req, key, fallback) {
  const v = req[key] ?? fallback;
  if (typeof v !== "number" || !(v > 0)) throw new Error(`${key} must be a number above 0`);
  return v;
}
function button(req) {
  const contact = board.buttons[req.role];
  if (!contact) throw new Error(`role must be one of ${Object.keys(board.buttons).join(", ")}`);
  return contact;
}

const OPS = {
  status: () => ({
    boots, frames: board.frameCount, pixel_errors: board.pixelErrors, flash: pico.flashOps, connected: pico.connected,
    xip: { hits: pico.xip.hits, accesses: pico.xip.accesses, misses: pico.xip.misses, line_cycles: transferCycles(pico.mcu.peripherals[0x18000], 64) },
  }),
  frames: (req) => ({ frames: board.frames.filter((f) => f.n >= (req.since ?? 0)), next: board.frameCount }),
  wait_frame: (req, answer) => {
    const since = req.since ?? 0;
    const found = board.frames.find((f) => f.n >= since);
    if (found) return { frame: found };
    const waiter = { since, answer };
    frameWaiters.push(waiter);
    setTimeout(() => {
      if (!frameWaiters.includes(waiter)) return;
      frameWaiters = frameWaiters.filter((w) => w !== waiter);
      answer({ frame: null });
    }, req.timeout_ms ?? 10000);
    return undefined;
  },
  wait: (req, answer) => {
    timeWaiters.push({ until: board.now() + positive(req, "ms") * 1e6, answer });
    return undefined;
  },
  press: (req) => ({ until_ms: (button(req).move(atNs(req), true) - board.base) / 1e6 }),
  release: (req) => ({ until_ms: (button(req).move(atNs(req), false) - board.base) / 1e6 }),
  sensor: (req) => {
    if (!board.chain) throw new Error("this board has no piece sensors (no sensor_* roles in the pin map)");
    const index = integer(req, "index", 0, board.chain.inputs.length - 1);
    const level = req.closed ? 0 : 1;
    board.scheduler.at(atNs(req), () => board.chain.set(index, level));
    return {};
  },
  turn: (req) => {
    const wheel = board.wheels[integer(req, "wheel", 0, board.wheels.length - 1)];
    const end = wheel.turn(atNs(req), integer(req, "quarters", -3, 3), positive(req, "click_ms", 150) * 1e6);
    return { until_ms: (end - board.base) / 1e6 };
  },
  beam: (req) => {
    const beam = board.beams[integer(req, "pocket", 0, board.beams.length - 1)];
    return { until_ms: (beam.pulse(atNs(req), positive(req, "width_ms", 3) * 1e6) - board.base) / 1e6 };
  },
  holds: (req) => ({
    holds: pico.holds.filter(([, end]) => end >= (req.since_ms ?? 0) * 1e6).map(([a, b]) => [a / 1e6, b / 1e6]),
  }),
  heap_watch: (req) => {
    pico.watchHeap(integer(req, "start", 0x20000000, 0x20041fff), integer(req, "length", 1, 0x10000),
      integer(req, "collect_end", 0x10000000, 0x101fffff));
    return {};
  },
  heap_low: () => {
    if (!pico.heap) throw new Error("no heap is watched since the Pico last started (heap_watch)");
    const low = pico.heapLow();
    return { low: low && { free: low.free, largest_block: low.largest, at_ms: low.at / 1e6 } };
  },
  pixels: () => ({ hex: Buffer.from(board.pixels.shown).toString("hex") }),
  reset: () => {
    pico.reset("reset button");
    return {};
  },
  power_cut: (req) => {
    const { torn } = req;
    if (torn !== undefined && (typeof torn !== "number" || !(torn >= 0 && torn <= 1) || req.after_writes === undefined)) {
      throw new Error("torn must be a number from 0 to 1, with after_writes");
    }
    offNs = (req.off_ms ?? 100) * 1e6;
    if (req.after_writes === undefined) pico.reset("power");
    else pico.cutAfterWrites = integer(req, "after_writes", 0, 1e9);
    pico.cutTorn = torn ?? null;
    return {};
  },
  save_fs: () => {
    saveFs();
    return { path: args.fs };
  },
};

const server = net.createServer((conn) => {
  let buf = "";
  conn.on("error", () => {});
  conn.on("data", (data) => {
    buf += data;
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const answer = (obj) => conn.write(JSON.stringify({ ...obj, now_ms: nowMs(), board_ms: board.now() / 1e6 }) + "\n");
      try {
        const req = JSON.parse(line);
        const op = OPS[req.op];
        if (!op) throw new Error(`unknown op ${JSON.stringify(req.op)} (known: ${Object.keys(OPS).join(", ")})`);
        const result = op(req, answer);
        if (result !== undefined) answer(result);
      } catch (e) {
        answer({ error: e.message });
      }
    }
  });
});
try {
  fs.unlinkSync(args.control);
} catch {
  // no old socket
}
server.listen(args.control);

// ---- running -------------------------------------------------------------------------------
process.stdin.on("data", (chunk) => pico.write(chunk));
process.stdin.on("end", shutdown);

// The Pico's clock never runs ahead of the wall clock: where the emulator
// is slower (a busy CPU) the Pico's time lags, where the CPU sleeps its time
// passes as fast as a real Pico's, not in one leap. (A sleeping Pico whose
// clock leapt ahead would time out every wait for the host.)
let refWall = performance.now();
let refNanos = 0;
function loop() {
  const wall = performance.now();
  if (pico.nanos + CATCH_UP_NS < refNanos + (wall - refWall) * 1e6) {
    refWall = wall; // behind: no credit for the time the emulator was slower than a Pico
    refNanos = pico.nanos;
  }
  const allowed = refNanos + (wall - refWall) * 1e6;
  pico.run(allowed, CHUNK_CYCLES);
  if (pico.nanos < refNanos) {
    refWall = performance.now(); // the Pico restarted: its clock began again at 0
    refNanos = pico.nanos;
  }
  const now = board.now();
  const due = timeWaiters.filter((w) => w.until <= now);
  timeWaiters = timeWaiters.filter((w) => w.until > now);
  for (const w of due) w.answer({});
  if (pico.nanos >= allowed) setTimeout(loop, 1);
  else setImmediate(loop);
}

function shutdown() {
  server.close();
  saveFs();
  try {
    fs.unlinkSync(args.control);
  } catch {
    // gone already
  }
  process.exit(0);
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);

pico.boot("power");
loop();
