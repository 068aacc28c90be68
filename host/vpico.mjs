#!/usr/bin/env node
// The virtual Pico's bridge: serial bytes on stdin/stdout (host/vpico.py puts
// a pseudo-terminal on them), the CPU in a worker (host/vpico_worker.mjs), and
// a control socket where tests and tools press buttons, place pieces and read
// the pixel frames the device sent.
//
//   node host/vpico.mjs --flash DIR --control SOCKET [--heap BYTES]
//
// The control socket speaks JSON lines, one request and one answer each:
//   {"op": "status"}                        boots, resets, frames sent, the REPL mode
//   {"op": "frames", "since": N}            the frames numbered N and later (the last 1000 kept)
//   {"op": "wait_frame", "since": N, "timeout_ms": T}   the first frame numbered N or later
//   {"op": "pins"}                          every GPIO: mode, pull, level driven, writes, outside level
//                                           (-1 none, -2 never driven)
//   {"op": "set_pin", "gpio": G, "level": 0|1|null}     drive a pin from outside (null: let it float)
//   {"op": "set_sensor", "index": N, "level": 0|1}      a 74HC165 input (0: a piece closes the switch)
//   {"op": "bootsel", "pressed": true|false}
//   {"op": "reset"}                         press the reset button (a hard reset)
// Errors answer {"error": "..."}.

import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import * as S from "./vpico_shared.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PKG = path.join(HERE, "..", "node_modules", "@micropython", "micropython-webassembly-pyscript");
const KEEP_FRAMES = 1000;
const USAGE = "usage: node host/vpico.mjs --flash DIR --control SOCKET [--heap BYTES]";

function die(msg) {
  process.stderr.write(`vpico: ${msg}\n`);
  process.exit(2);
}
const args = { heap: 192 * 1024 };
const argv = process.argv.slice(2);
while (argv.length) {
  const opt = argv.shift();
  const value = argv.shift() ?? die(`${opt} needs a value\n${USAGE}`);
  if (opt === "--flash") args.flash = path.resolve(value);
  else if (opt === "--control") args.control = path.resolve(value);
  else if (opt === "--heap") args.heap = Number(value);
  else die(`unknown option ${opt}\n${USAGE}`);
}
if (!args.flash || !args.control) die(USAGE);
if (!fs.existsSync(path.join(PKG, "micropython.mjs"))) die(`MicroPython is not installed in ${PKG}; run \`make setup\``);

const wasm = new WebAssembly.Module(fs.readFileSync(path.join(PKG, "micropython.wasm")));
const { ctl, ring, sensors } = S.sharedState();
const MASK = S.RING_SIZE - 1;
const now = () => performance.timeOrigin + performance.now();

// ---- the CPU -------------------------------------------------------------------
const state = { boots: [], resets: [], frames: 0, raw: false, ready: false, bootedAt: 0, mainAt: null, readyAt: 0, firstFrameAt: null };
// the last KEEP_FRAMES: {n, gpio, t_ms (since the boot began), boot, ticks (the program's
// last reading of time.ticks_ms() before it sent the frame), timing, hex}
let frames = [];
let frameWaiters = [];
let worker = null;
let pending = []; // serial input that did not fit the ring yet

// machine.reset_cause() and the watchdog's REASON register after each kind of start
// (machine.reset() reboots through the watchdog on the RP2040: WDT_RESET, REASON "forced")
const RESET_CAUSES = {
  power: { resetCause: 1, resetReason: 0 },
  "reset button": { resetCause: 1, resetReason: 0 },
  crash: { resetCause: 1, resetReason: 0 },
  watchdog: { resetCause: 3, resetReason: 1 },
  reset: { resetCause: 3, resetReason: 2 },
  bootloader: { resetCause: 3, resetReason: 2 },
};

function start(kind) {
  // whatever the host sent before the reset is lost, as on a real board
  Atomics.store(ctl, S.R, Atomics.load(ctl, S.W));
  pending = [];
  for (let g = 0; g < S.GPIO_COUNT; g++) {
    ctl[S.PIN_MODE + g] = -1;
    ctl[S.PIN_PULL + g] = 0;
    ctl[S.PIN_OUT + g] = -1;
  }
  const w = new Worker(path.join(HERE, "vpico_worker.mjs"), {
    workerData: {
      loader: path.join(PKG, "micropython.mjs"), wasm, flashDir: args.flash, libDir: path.join(HERE, "vpico_lib"),
      heap: args.heap, ctl, ring, sensors, kind, ...RESET_CAUSES[kind],
    },
    stdout: true, // the worker's console is a log, never the serial line
  });
  w.stdout.pipe(process.stderr);
  w.on("message", (m) => onMessage(w, m));
  w.on("error", (e) => {
    if (w !== worker) return;
    // a crash right after a start would only crash again: then the device stays off
    const again = now() - state.bootedAt > 2000;
    process.stderr.write(`vpico: the device crashed (${e.message})${again ? "; resetting it" : ""}\n`);
    if (again) restart("crash");
    else worker = null;
  });
  worker = w;
}

function restart(reason) {
  state.resets.push(reason);
  const old = worker;
  worker = null;
  old.terminate().then(() => start(reason));
}

function onMessage(w, m) {
  if (w !== worker) return; // a worker being ended
  if (m.type === "out") process.stdout.write(m.data);
  else if (m.type === "boot") {
    state.boots.push(m.kind);
    state.bootedAt = m.t;
    state.ready = false;
    state.mainAt = null;
    state.firstFrameAt = null;
  } else if (m.type === "main") state.mainAt = m.t;
  else if (m.type === "ready") {
    state.ready = true;
    state.readyAt = m.t;
    state.raw = m.raw;
  } else if (m.type === "frame") {
    state.firstFrameAt ??= m.t;
    const frame = {
      n: state.frames++, gpio: m.gpio, t_ms: Math.round((m.t - state.bootedAt) * 10) / 10,
      boot: state.boots.length, ticks: m.ticks, timing: m.timing, hex: Buffer.from(m.data).toString("hex"),
    };
    frames.push(frame);
    if (frames.length > KEEP_FRAMES) frames = frames.slice(-KEEP_FRAMES);
    const ready = frameWaiters.filter((fw) => frame.n >= fw.since);
    frameWaiters = frameWaiters.filter((fw) => frame.n < fw.since);
    for (const fw of ready) fw.answer({ frame });
  } else if (m.type === "reset") restart(m.reason);
  else if (m.type === "log") process.stderr.write(`vpico: ${m.text}\n`);
}

// ---- serial input ----------------------------------------------------------------
function pump() {
  while (pending.length) {
    const w = Atomics.load(ctl, S.W);
    const free = S.RING_SIZE - ((w - Atomics.load(ctl, S.R)) | 0);
    if (!free) break;
    const chunk = pending[0];
    const n = Math.min(free, chunk.length);
    for (let i = 0; i < n; i++) ring[(w + i) & MASK] = chunk[i];
    Atomics.store(ctl, S.W, (w + n) | 0);
    Atomics.notify(ctl, S.W);
    if (n < chunk.length) pending[0] = chunk.subarray(n);
    else pending.shift();
  }
  // a full ring holds the host back, as a busy board's USB does
  if (pending.length) {
    process.stdin.pause();
    setTimeout(pump, 5);
  } else process.stdin.resume();
}
process.stdin.on("data", (chunk) => {
  pending.push(chunk);
  pump();
});
process.stdin.on("end", () => shutdown());

// ---- the control socket ----------------------------------------------------------
function pinsReport() {
  const pins = {};
  for (let g = 0; g < S.GPIO_COUNT; g++) {
    pins[g] = {
      mode: ctl[S.PIN_MODE + g], pull: ctl[S.PIN_PULL + g], out: ctl[S.PIN_OUT + g],
      writes: ctl[S.PIN_WRITES + g], in: ctl[S.PIN_IN + g],
    };
  }
  return { pins };
}
function gpioArg(req) {
  if (!Number.isInteger(req.gpio) || req.gpio < 0 || req.gpio >= S.GPIO_COUNT) throw new Error(`gpio must be 0-${S.GPIO_COUNT - 1}`);
  return req.gpio;
}
function level(v, allowNull) {
  if (v === 0 || v === 1 || (allowNull && v === null)) return v;
  throw new Error(`level must be 0 or 1${allowNull ? " or null" : ""}`);
}
const OPS = {
  status: () => ({
    ...state, boot_ms: state.ready ? Math.round(state.readyAt - state.bootedAt) : null,
    first_frame_ms: state.firstFrameAt === null ? null : Math.round((state.firstFrameAt - state.bootedAt) * 10) / 10,
    main_to_first_frame_ms: state.firstFrameAt === null || state.mainAt === null ? null : Math.round((state.firstFrameAt - state.mainAt) * 10) / 10,
  }),
  frames: (req) => ({ frames: frames.filter((f) => f.n >= (req.since ?? 0)), next: state.frames }),
  wait_frame: (req, answer) => {
    const since = req.since ?? 0;
    const found = frames.find((f) => f.n >= since);
    if (found) return { frame: found };
    const fw = { since, answer };
    frameWaiters.push(fw);
    setTimeout(() => {
      if (!frameWaiters.includes(fw)) return;
      frameWaiters = frameWaiters.filter((x) => x !== fw);
      answer({ frame: null });
    }, req.timeout_ms ?? 5000);
    return undefined; // answered later
  },
  pins: pinsReport,
  set_pin: (req) => {
    Atomics.store(ctl, S.PIN_IN + gpioArg(req), level(req.level, true) ?? -1);
    return {};
  },
  set_sensor: (req) => {
    if (!Number.isInteger(req.index) || req.index < 0 || req.index >= S.SENSOR_COUNT) throw new Error(`index must be 0-${S.SENSOR_COUNT - 1}`);
    sensors[req.index] = level(req.level, false);
    return {};
  },
  bootsel: (req) => {
    Atomics.store(ctl, S.BOOTSEL, req.pressed ? 1 : 0);
    return {};
  },
  reset: () => {
    if (worker) restart("reset button");
    return {};
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
      const answer = (obj) => conn.write(JSON.stringify(obj) + "\n");
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

function shutdown() {
  server.close();
  try {
    fs.unlinkSync(args.control);
  } catch {
    // gone already
  }
  process.exit(0);
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);

start("power");
