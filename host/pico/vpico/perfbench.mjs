#!/usr/bin/env node
// One program on a fresh emulated Pico, timed by the Pico's own clock: boots
// the firmware with a filesystem image, types `import MODULE` at the REPL and
// prints, as one JSON line, what the Pico printed until its next prompt, the
// emulated time that took and the XIP cache's counts over it. With --profile,
// also the flash addresses whose reads missed the cache, and how often.
// host/pico/vpico/calibrate.py runs MicroPython's perfbench programs with it.
//
//   node host/pico/vpico/perfbench.mjs --rom ROM --uf2 UF2 --fs IMAGE --module NAME [--profile] [--limit-s S]
//
// The emulator runs as fast as it can (no wall clock): the figures are the
// same on every run and every machine.

import fs from "node:fs";
import { FS_BYTES, Pico, uf2Image } from "./machine.mjs";

const USAGE = "usage: node host/pico/vpico/perfbench.mjs --rom ROM --uf2 UF2 --fs IMAGE --module NAME [--profile] [--limit-s S]";
const PROMPT = "\r\n>>> ";
const STEP_NS = 1e6;
const BOOT_LIMIT_NS = 10e9; // a REPL later than this: the firmware did not start

function die(msg) {
  process.stderr.write(`perfbench: ${msg}\n`);
  process.exit(2);
}

const args = { limitS: "600" };
const argv = process.argv.slice(2);
while (argv.length) {
  const opt = argv.shift();
  if (opt === "--profile") {
    args.profile = true;
    continue;
  }
  const key = { "--rom": "rom", "--uf2": "uf2", "--fs": "fs", "--module": "module", "--limit-s": "limitS" }[opt];
  if (!key) die(`unknown option ${opt}\n${USAGE}`);
  args[key] = argv.shift() ?? die(`${opt} needs a value\n${USAGE}`);
}
for (const key of ["rom", "uf2", "fs", "module"]) if (!args[key]) die(USAGE);
if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(args.module)) die(`${args.module} is not a module name`);

const read = (path, what) => {
  try {
    return fs.readFileSync(path);
  } catch (e) {
    return die(`cannot read the ${what} ${path}: ${e.message}`);
  }
};
const image = new Uint8Array(read(args.fs, "filesystem image"));
if (image.length !== FS_BYTES) die(`${args.fs} is ${image.length} bytes; a Pico's filesystem image is ${FS_BYTES}`);

let serial = "";
const pico = new Pico({
  rom: read(args.rom, "boot ROM"),
  firmware: uf2Image(read(args.uf2, "MicroPython UF2")),
  fs: image,
  onSerial: (bytes) => {
    serial += bytes.toString("latin1");
  },
});
pico.boot("power");
// the REPL's first prompt goes out once the host has typed something
pico.write(Buffer.from("\r"));

/** Runs the Pico until `done()` or the emulated clock passes `limitNs`; false on the limit.
 * (In steps of 1 ms of its time: a core asleep in one long run() would not wake for the host's bytes.) */
function runUntil(done, limitNs) {
  while (!done()) {
    if (pico.nanos > limitNs) return false;
    pico.run(pico.nanos + STEP_NS, 1e6);
  }
  return true;
}

if (!runUntil(() => serial.endsWith(PROMPT), BOOT_LIMIT_NS)) die(`no REPL prompt within ${BOOT_LIMIT_NS / 1e9} s of the Pico's time; it printed: ${JSON.stringify(serial)}`);
const misses = new Map(); // flash address -> reads there that missed
if (args.profile) pico.xip.onMiss = (address) => misses.set(address, (misses.get(address) ?? 0) + 1);
const { xip } = pico;
const before = { nanos: pico.nanos, hits: xip.hits, accesses: xip.accesses, misses: xip.misses };
const command = `import ${args.module}\r`;
pico.write(Buffer.from(command));
const start = serial.length;
const finished = runUntil(() => serial.length > start + command.length && serial.endsWith(PROMPT), before.nanos + Number(args.limitS) * 1e9);
const printed = serial.slice(start + command.length).replace(/^\n/, "");
if (!finished) die(`${args.module} did not finish within ${args.limitS} s of the Pico's time; it printed: ${JSON.stringify(printed)}`);
const result = {
  module: args.module,
  output: printed.slice(0, -PROMPT.length).replace(/\r\n/g, "\n"),
  emulated_ns: pico.nanos - before.nanos,
  xip: { hits: xip.hits - before.hits, accesses: xip.accesses - before.accesses, misses: xip.misses - before.misses },
};
if (args.profile) result.misses = Object.fromEntries([...misses].map(([a, n]) => [a.toString(16), n]));
process.stdout.write(JSON.stringify(result) + "\n");
