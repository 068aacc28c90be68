// The virtual Pico's CPU: MicroPython (the WebAssembly port) in a worker
// thread, so a main.py that loops forever does not block the bridge.
//
// It reads serial input from the shared ring (host/vpico_shared.mjs), drives
// the port's REPL with replProcessChar and adds what the port lacks for
// mpremote: raw-paste mode, a soft reset (Ctrl-D on an empty line)
// starts a fresh interpreter with the same files and runs boot.py (and
// main.py from the friendly REPL) as rp2 does, and Ctrl-C interrupts running
// code. The device's files live in the interpreter's in-memory filesystem
// and are written through to the host folder (workerData.flashDir), so they
// survive soft and hard resets and restarts of the virtual Pico.
//
// A hard reset (machine.reset, the watchdog, the bridge's reset) ends this
// worker; the bridge starts a new one.

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import * as S from "./vpico_shared.mjs";

const { loader, wasm, flashDir, libDir, heap, ctl, ring, sensors, resetCause, resetReason } = workerData;
const MASK = S.RING_SIZE - 1;
const LIB = "/.vpico"; // our machine, neopixel, rp2: outside the device's own files
const HIDDEN = new Set(["dev", "proc", ".vpico"]); // Emscripten's and ours, not listed in /
const FLASH_BLOCKS = 352; // the Pico's 1408 KiB filesystem in 4 KiB blocks (RPI_PICO board)
const now = () => performance.timeOrigin + performance.now();

// ---- serial output ----------------------------------------------------------
// Text is sent with "\r\n" line ends as rp2's stdout does; while the program
// has Ctrl-C switched off (kbd_intr(-1): mpremote's mount protocol) bytes go
// out unchanged.
let out = [];
let lastFlush = 0;
let prevByte = 0;
let dropOK = 0; // bytes of the raw REPL's "OK" still to leave out (raw-paste acknowledges with \x04)
function put(bytes) {
  for (const b of bytes) {
    if (dropOK) {
      dropOK--;
      continue;
    }
    if (b === 10 && prevByte !== 13 && intrChar !== -1) out.push(13);
    out.push(b);
    prevByte = b;
  }
  if (out.length >= 4096) flush();
}
function flush() {
  lastFlush = now();
  if (!out.length) return;
  parentPort.postMessage({ type: "out", data: Uint8Array.from(out) });
  out = [];
}
const say = (text) => put(Buffer.from(text, "latin1"));
const log = (text) => parentPort.postMessage({ type: "log", text });

// ---- serial input -------------------------------------------------------------
let rpos = Atomics.load(ctl, S.R);
let scanned = rpos; // input up to here was looked at for Ctrl-C
const interrupts = new Set(); // ring positions of Ctrl-Cs spent as KeyboardInterrupt
let intrChar = 3; // micropython.kbd_intr(); back to Ctrl-C for every new command

const waiting = () => (Atomics.load(ctl, S.W) - rpos) | 0;
function take() {
  const pos = rpos;
  const b = ring[pos & MASK];
  rpos = (rpos + 1) | 0;
  Atomics.store(ctl, S.R, rpos);
  return interrupts.delete(pos) ? -1 : b;
}
// Sleep until input comes, ms pass or the watchdog bites.
function waitInput(ms) {
  flush();
  if (wdtDeadline) ms = Math.max(0, Math.min(ms, wdtDeadline - now()));
  Atomics.wait(ctl, S.W, rpos, ms);
  if (wdtDeadline && now() >= wdtDeadline) hardReset("watchdog");
}
function nextByte() {
  for (;;) {
    if (waiting() > 0) {
      const b = take();
      if (b >= 0) return b;
    } else waitInput(Infinity);
  }
}

// Called whenever running Python reads the clock or sleeps: a Ctrl-C that
// came in since is taken out of the input and answered with True (the
// caller raises KeyboardInterrupt), as the Pico's USB interrupt does.
function poll() {
  let hit = false;
  const w = Atomics.load(ctl, S.W);
  if (((scanned - rpos) | 0) < 0) scanned = rpos;
  for (; scanned !== w; scanned = (scanned + 1) | 0) {
    if (intrChar >= 0 && ring[scanned & MASK] === intrChar) {
      interrupts.add(scanned);
      hit = true;
    }
  }
  if (wdtDeadline && now() >= wdtDeadline) hardReset("watchdog");
  if (out.length && now() - lastFlush > 20) flush();
  return hit;
}

// sys.stdin while a program runs
function stdinByte() {
  for (;;) {
    if (poll()) {
      mp._module._mp_sched_keyboard_interrupt();
      return null;
    }
    if (waiting() > 0) {
      const b = take();
      if (b >= 0) return b;
    } else waitInput(50);
  }
}

// ---- resets -----------------------------------------------------------------------
let wdtDeadline = 0; // the watchdog keeps running across soft resets, as the RP2040's does
let wdtTimeout = 0;
let softResetAsked = false;
function hardReset(reason) {
  flush();
  parentPort.postMessage({ type: "reset", reason });
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); // the bridge ends this thread
}

// ---- pins: levels in shared memory, a 74HC165 chain on the sensor pins ----------
let chain = null; // {latch, clock, data}: from the device's /hardware/pins.json
let chainBits = new Uint8Array(S.SENSOR_COUNT);
let chainPos = 0;
function readWiring() {
  chain = null;
  try {
    const pins = JSON.parse(mp.FS.readFile("/hardware/pins.json", { encoding: "utf8" }));
    if ([pins.sensor_latch, pins.sensor_clock, pins.sensor_data].every(Number.isInteger)) {
      chain = { latch: pins.sensor_latch, clock: pins.sensor_clock, data: pins.sensor_data };
    }
    // the wheels stand at position 0, as a new game has them: both contacts closed
    for (const [role, g] of Object.entries(pins)) {
      if (/^wheel\d_[ab]$/.test(role) && Number.isInteger(g) && g >= 0 && g < S.GPIO_COUNT) {
        Atomics.compareExchange(ctl, S.PIN_IN + g, S.UNTOUCHED, 0);
      }
    }
  } catch {
    // no pin map on the device: plain pins only
  }
}
function pinWrite(g, v) {
  const old = ctl[S.PIN_OUT + g];
  Atomics.store(ctl, S.PIN_OUT + g, v);
  Atomics.add(ctl, S.PIN_WRITES + g, 1);
  if (!chain) return;
  if (g === chain.latch && v === 0) {
    chainBits = sensors.slice(); // PL low: every chip copies its inputs
    chainPos = 0;
  } else if (g === chain.clock && v === 1 && old === 0 && ctl[S.PIN_OUT + chain.latch] === 1) {
    chainPos++; // rising clock edge: the chain moves one bit towards the Pico
  }
}
function pinRead(g) {
  if (chain && g === chain.data) {
    // chip c's D7..D0 come out in that order; past the chain's end its input is pulled up
    const n = (chainPos >> 3) * 8 + 7 - (chainPos & 7);
    return chainPos < S.SENSOR_COUNT ? chainBits[n] : 1;
  }
  if (ctl[S.PIN_MODE + g] === 1) return Math.max(ctl[S.PIN_OUT + g], 0); // an output reads what it drives
  const level = ctl[S.PIN_IN + g];
  if (level >= 0) return level;
  return ctl[S.PIN_PULL + g] === 1 ? 1 : 0; // floating: what the pull resistor gives
}

// What the fake machine/neopixel/rp2 modules call (import _vpico).
const bridge = {
  pin_mode: (g, mode, pull) => {
    if (mode !== null) Atomics.store(ctl, S.PIN_MODE + g, mode);
    if (pull !== null) Atomics.store(ctl, S.PIN_PULL + g, pull);
  },
  pin_write: pinWrite,
  pin_read: pinRead,
  bitstream: (g, timing, buf) => {
    const data = mp.PyProxy.toJs(buf);
    parentPort.postMessage({ type: "frame", gpio: g, timing: mp.PyProxy.toJs(timing), data, t: now(), ticks: lastTicks });
  },
  bootsel: () => Atomics.load(ctl, S.BOOTSEL),
  // sleep up to ms, waking early for a Ctrl-C; true when interrupted
  sleep: (ms) => {
    const end = now() + ms;
    for (;;) {
      if (poll()) return true;
      const left = end - now();
      if (left <= 0) return false;
      flush();
      let wait = left;
      if (wdtDeadline) wait = Math.max(0, Math.min(wait, wdtDeadline - now()));
      Atomics.wait(ctl, S.W, Atomics.load(ctl, S.W), wait);
    }
  },
  kbd_intr: (c) => {
    intrChar = c;
  },
  reset: () => hardReset("reset"),
  bootloader: () => hardReset("bootloader"),
  soft_reset: () => {
    softResetAsked = true;
  },
  reset_cause: () => resetCause,
  wdt_start: (ms) => {
    wdtTimeout = ms;
    wdtDeadline = now() + ms;
  },
  wdt_feed: () => {
    if (wdtTimeout) wdtDeadline = now() + wdtTimeout;
  },
  // the RP2040's watchdog can be paused through its CTRL register (machine.mem32)
  wdt_stop: () => {
    wdtTimeout = 0;
    wdtDeadline = 0;
  },
  wdt_running: () => wdtDeadline !== 0,
  wdt_reason: () => resetReason,
};

// ---- the interpreter --------------------------------------------------------------
// Errno numbers: the port reports Emscripten's (ENOENT is 44); MicroPython on
// the Pico uses Linux's, and mpremote reads them by name from the traceback
// ("[Errno 2] ENOENT"), so every failing syscall is translated.
const LINUX_ERRNO = {
  1: 7, 2: 13, 3: 98, 6: 11, 7: 114, 8: 9, 10: 16, 12: 10, 13: 103, 14: 111, 15: 104, 18: 33,
  20: 17, 21: 14, 22: 27, 23: 113, 26: 115, 27: 4, 28: 22, 29: 5, 31: 21, 32: 40, 33: 24, 34: 31,
  37: 36, 41: 23, 42: 105, 43: 19, 44: 2, 45: 8, 48: 12, 51: 28, 52: 38, 53: 107, 54: 20, 55: 39,
  58: 95, 59: 25, 60: 6, 63: 1, 64: 32, 68: 34, 69: 30, 70: 29, 71: 3, 73: 110, 74: 26, 75: 18, 138: 95,
};
const linux = (e) => LINUX_ERRNO[e] ?? e;
const TICKS_MASK = 0x3fffffff; // time.ticks_ms() wraps at 2**30
// The program's last reading of time.ticks_ms(), sent with each pixel frame: a
// loop that reads the clock once per frame painted that frame for this moment.
let lastTicks = 0;
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async (_binary, imports) => {
  for (const ns of new Set(Object.values(imports))) {
    for (const [name, f] of Object.entries(ns)) {
      if (typeof f !== "function") continue;
      if (name.startsWith("__syscall_")) ns[name] = (...a) => { const r = f(...a); return typeof r === "number" && r < 0 ? -linux(-r) : r; };
      else if (name.startsWith("fd_")) ns[name] = (...a) => { const r = f(...a); return typeof r === "number" && r > 0 ? linux(r) : r; };
      else if (name === "mp_js_ticks_ms" || name === "mp_js_time_ms") {
        // every read of the clock by the program is a chance to see a Ctrl-C
        ns[name] = () => {
          if (poll()) mp._module._mp_sched_keyboard_interrupt();
          const t = f();
          if (name === "mp_js_ticks_ms") lastTicks = t & TICKS_MASK;
          return t;
        };
      }
    }
  }
  return { module: wasm, instance: await instantiate(wasm, imports) };
};
const { loadMicroPython } = await import(pathToFileURL(loader).href);
let mp = null;

const devicePath = (p) => path.posix.resolve(mp.FS.cwd(), p);
const hostPath = (p) => path.join(flashDir, ...p.split("/").filter(Boolean));
const onDevice = (p) => p !== "/" && !HIDDEN.has(p.split("/")[1]);
// keep the host folder in step; a failure there is logged, the device goes on
function mirror(what, p, action) {
  if (!onDevice(p)) return;
  try {
    action(hostPath(p));
  } catch (e) {
    log(`flash folder: ${what} ${p}: ${e.message}`);
  }
}

function loadTree(hostDir, devDir) {
  for (const name of fs.readdirSync(hostDir)) {
    if (devDir === "/" && HIDDEN.has(name)) continue;
    const h = path.join(hostDir, name);
    const d = path.posix.join(devDir, name);
    const st = fs.statSync(h);
    if (st.isDirectory()) {
      mp.FS.mkdir(d);
      loadTree(h, d);
    } else if (st.isFile()) mp.FS.writeFile(d, fs.readFileSync(h));
  }
}

function flashBlocksUsed(dir = "/") {
  let blocks = 2; // LittleFS keeps a metadata pair per directory
  for (const name of mp.FS.readdir(dir)) {
    if (name === "." || name === ".." || (dir === "/" && HIDDEN.has(name))) continue;
    const p = path.posix.join(dir, name);
    const st = mp.FS.stat(p);
    blocks += mp.FS.isDir(st.mode) ? flashBlocksUsed(p) : Math.ceil(st.size / 4096);
  }
  return blocks;
}

function setUpFilesystem() {
  const FS = mp.FS;
  for (const d of ["/tmp", "/home/web_user", "/home"]) {
    try {
      FS.rmdir(d);
    } catch {
      // not there in this build
    }
  }
  FS.mkdir(LIB);
  for (const name of fs.readdirSync(libDir)) {
    if (name.endsWith(".py")) FS.writeFile(`${LIB}/${name}`, fs.readFileSync(path.join(libDir, name)));
  }
  fs.mkdirSync(flashDir, { recursive: true });
  loadTree(flashDir, "/");

  // From here on every change is written through to the host folder.
  const { readdir, close, unlink, rmdir, mkdir, rename, truncate, statfs, stat, lstat } = FS;
  // os.stat("") is the current folder, as on the Pico (mpremote's "cp -r a b :" asks)
  FS.stat = (p, ...rest) => stat(p === "" ? "." : p, ...rest);
  FS.lstat = (p, ...rest) => lstat(p === "" ? "." : p, ...rest);
  FS.readdir = (p) => {
    const names = readdir(p);
    return devicePath(p) === "/" ? names.filter((n) => !HIDDEN.has(n)) : names;
  };
  FS.close = (stream) => {
    const written = stream.node && (stream.flags & 3) !== 0 && FS.isFile(stream.node.mode);
    const p = written ? FS.getPath(stream.node) : null;
    close(stream);
    if (p) mirror("write", p, (h) => fs.writeFileSync(h, FS.readFile(p)));
  };
  FS.unlink = (p) => {
    unlink(p);
    mirror("remove", devicePath(p), (h) => fs.unlinkSync(h));
  };
  FS.rmdir = (p) => {
    rmdir(p);
    mirror("rmdir", devicePath(p), (h) => fs.rmdirSync(h));
  };
  FS.mkdir = (p, mode) => {
    const node = mkdir(p, mode);
    mirror("mkdir", devicePath(p), (h) => fs.mkdirSync(h, { recursive: true }));
    return node;
  };
  FS.rename = (a, b) => {
    const from = devicePath(a);
    const to = devicePath(b);
    rename(a, b);
    if (onDevice(from) && onDevice(to)) mirror("rename", from, (h) => fs.renameSync(h, hostPath(to)));
  };
  FS.truncate = (p, len) => {
    // a path, or the node of a file being opened with O_TRUNC (written at close)
    const full = typeof p === "string" ? devicePath(p) : null;
    truncate(p, len);
    if (full) mirror("truncate", full, (h) => fs.writeFileSync(h, FS.readFile(full)));
  };
  // os.statvfs: the Pico's filesystem size, and roughly what LittleFS would use
  FS.statfs = (p) => {
    const st = statfs(p);
    const free = Math.max(0, FLASH_BLOCKS - flashBlocksUsed());
    return { ...st, bsize: 4096, frsize: 4096, blocks: FLASH_BLOCKS, bfree: free, bavail: free };
  };
}

async function newInterpreter() {
  mp = await loadMicroPython({ heapsize: heap, linebuffer: false, stdout: put, stderr: put, stdin: stdinByte });
  setUpFilesystem();
  readWiring();
  mp.registerJsModule("_vpico", bridge);
  mp.runPython(`
import sys
sys.path[:] = ["${LIB}", ".frozen"]
import vpico_setup
del sys.modules["vpico_setup"]
sys.path[:] = ["", ".frozen", "/lib"]
del sys, vpico_setup
`);
}

// boot.py and main.py run as pyexec_file runs them on the Pico: in __main__,
// an exception printed, not raised; SystemExit just ends the file.
function runFile(name) {
  if (!mp.FS.analyzePath("/" + name).exists) return;
  intrChar = 3;
  try {
    mp.runPython(`
def __vpico_run(name):
    import sys, io
    del globals()["__vpico_run"]
    try:
        execfile(name)
    except SystemExit:
        pass
    except BaseException as e:
        buf = io.StringIO()
        sys.print_exception(e, buf)
        print("".join(line + "\\n" for line in buf.getvalue().split("\\n")[:-1] if '"<stdin>"' not in line and '"/.vpico/' not in line), end="")
__vpico_run(${JSON.stringify(name)})
`);
  } catch (e) {
    say(`${e.message}\n`); // an interrupt that came after the file ended
  }
  flush();
}

// ---- the REPL, with raw-paste and soft resets done here ----------------------------
let rawMode = false; // the REPL's mode survives a soft reset, as on the Pico
let rawLen = 0; // bytes of the raw REPL's current command
let pasteStep = 0; // 1 after Ctrl-E, 2 after Ctrl-E A
// Raw-paste (mpremote's fast way in): the host sends up to PASTE_WINDOW bytes
// ahead and a further window after each \x01; Ctrl-D ends the code.
const PASTE_WINDOW = 4096;
let paste = null; // the code being pasted
let pasteRemain = 0;

async function start(kind) {
  parentPort.postMessage({ type: "boot", kind, t: now() });
  if (kind === "soft") say("MPY: soft reboot\n");
  softResetAsked = false;
  await newInterpreter();
  runFile("boot.py");
  if (!rawMode) {
    // rp2 runs main.py only when the REPL is the friendly one
    parentPort.postMessage({ type: "main", t: now() });
    runFile("main.py");
  }
  intrChar = 3;
  if (rawMode) {
    const keep = out.length;
    mp.replInit();
    mp.replProcessChar(1);
    out.length = keep; // the banner is not shown when the board comes back in raw mode
    say("raw REPL; CTRL-B to exit\r\n>");
    rawLen = 0;
  } else mp.replInit();
  parentPort.postMessage({ type: "ready", t: now(), raw: rawMode });
  flush();
}

// One byte to the port's REPL; true when a soft reset is due.
function feed(b) {
  intrChar = 3;
  let rc = 0;
  try {
    rc = mp.replProcessChar(b);
  } catch (e) {
    log(`REPL: ${e.message}`);
  }
  flush();
  return (rc & 0x100) !== 0 || softResetAsked;
}

// A byte of raw-paste. At the end the code goes through the port's raw REPL,
// which runs it and frames the output as raw-paste does, but for its "OK".
function pasted(b) {
  if (b !== 4 && b !== 3) {
    paste.push(b);
    if (--pasteRemain === 0) {
      say("\x01");
      flush();
      pasteRemain = PASTE_WINDOW;
    }
    return false;
  }
  // Ctrl-D: the end of the code; Ctrl-C: given up, which the device reports as an interrupt
  const code = b === 4 ? paste : [...Buffer.from("raise KeyboardInterrupt")];
  paste = null;
  say("\x04");
  for (const c of code.length ? code : [10]) feed(c); // an empty command would be a soft reset
  dropOK = 2;
  rawLen = 0;
  return feed(4);
}

function handle(b) {
  if (paste) return pasted(b);
  if (pasteStep === 1) {
    pasteStep = 0;
    if (b === 0x41) {
      pasteStep = 2;
      return false;
    }
    rawLen++;
    if (feed(5)) return true;
  } else if (pasteStep === 2) {
    pasteStep = 0;
    if (b === 1) {
      say(`R\x01${String.fromCharCode(PASTE_WINDOW & 0xff, PASTE_WINDOW >> 8)}`);
      flush();
      paste = [];
      pasteRemain = PASTE_WINDOW;
      return false;
    }
    rawLen += 2;
    if (feed(5) || feed(0x41)) return true;
  }
  if (rawMode) {
    if (b === 5 && rawLen === 0) {
      pasteStep = 1;
      return false;
    }
    if (b === 2) rawMode = false;
    else if (b === 1 || b === 3 || b === 4) rawLen = 0;
    else rawLen++;
  } else if (b === 1) {
    rawMode = true;
    rawLen = 0;
  }
  return feed(b);
}

await start(workerData.kind);
for (;;) {
  if (handle(nextByte())) await start("soft");
}
