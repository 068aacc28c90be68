#!/usr/bin/env node
// Run a Python script under real MicroPython (the WebAssembly port from npm) on a PC.
//
//   node host/mpy_run.mjs [--heap BYTES] [--path HOSTDIR[=DEVDIR]]... SCRIPT.py [ARGS...]
//
// Each HOSTDIR is copied into the interpreter's in-memory filesystem at DEVDIR
// (default "/" + basename of HOSTDIR) and DEVDIR is put on sys.path, so
// `--path firmware=/fw` makes firmware/rules/core.py importable as rules.core.
// Exit status: 0 on success, N for sys.exit(N), 1 (traceback on stderr) for an
// uncaught exception, 2 for a usage/setup problem.
//
// Port caveats worth knowing before reading results:
// - --heap is only the *initial* GC heap: this port grows the heap on demand, so
//   it cannot enforce a Pico-sized limit, and gc.mem_free() includes 128 MiB of
//   "could still be added" headroom.
// - Garbage is only reclaimed between top-level entries from JS (i.e. between
//   asyncio steps), never in the middle of synchronous code; gc.collect() is
//   deferred. Long synchronous loops therefore keep growing memory.
// - asyncio runs on the JS event loop and has no asyncio.run(); we add one that
//   schedules the coroutine and ends the process when it finishes. Code after
//   asyncio.run(...) therefore runs *before* the coroutine does.
// - There is no machine, neopixel or os.urandom.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const PKG = "@micropython/micropython-webassembly-pyscript";
const COPY_EXTS = new Set([".py", ".json", ".jsonl", ".txt"]);
const DEFAULT_HEAP = 8 * 1024 * 1024;
const USAGE = "usage: node host/mpy_run.mjs [--heap BYTES] [--path HOSTDIR[=DEVDIR]]... SCRIPT.py [ARGS...]";

function die(msg) {
  process.stderr.write(`mpy_run: ${msg}\n`);
  process.exit(2);
}

// ---- command line ---------------------------------------------------------
function parseSize(text) {
  const m = /^(\d+)([kKmM]?)$/.exec(text ?? "");
  if (!m) die(`--heap wants a byte count like 196608, 192k or 8m, got ${JSON.stringify(text)}`);
  const bytes = Number(m[1]) * { "": 1, k: 1024, m: 1024 * 1024 }[m[2].toLowerCase()];
  // Below 16 bytes the interpreter crashes during start-up; 1 KiB is a sane floor.
  if (bytes < 1024) die("--heap must be at least 1024 bytes");
  return bytes;
}

let heap = DEFAULT_HEAP;
const mounts = []; // {host, dev}
const argv = process.argv.slice(2);
while (argv.length && argv[0].startsWith("-")) {
  const opt = argv.shift();
  if (opt === "--") break;
  if (opt === "-h" || opt === "--help") { console.log(USAGE); process.exit(0); }
  if (opt === "--heap") { heap = parseSize(argv.shift()); continue; }
  if (opt === "--path") {
    const spec = argv.shift() ?? die("--path needs HOSTDIR[=DEVDIR]");
    const eq = spec.indexOf("=");
    const host = path.resolve(eq < 0 ? spec : spec.slice(0, eq));
    let dev = eq < 0 ? "/" + path.basename(host) : spec.slice(eq + 1);
    dev = path.posix.normalize("/" + dev).replace(/(.)\/$/, "$1");
    if (!fs.existsSync(host) || !fs.statSync(host).isDirectory()) die(`--path: no such directory: ${host}`);
    mounts.push({ host, dev });
    continue;
  }
  die(`unknown option ${opt}\n${USAGE}`);
}
if (!argv.length) die(`no script given\n${USAGE}`);
const [scriptArg, ...scriptArgs] = argv;
const scriptHost = path.resolve(scriptArg);
if (!fs.existsSync(scriptHost) || !fs.statSync(scriptHost).isFile()) die(`script not found: ${scriptArg}`);

// ---- load MicroPython from the repo's own node_modules ---------------------
// Resolved from this file, not the cwd, so the tool works from any directory.
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const loader = path.join(repoRoot, "node_modules", PKG, "micropython.mjs");
if (!fs.existsSync(loader)) die(`${PKG} is not installed in ${repoRoot}/node_modules; run \`make test\` (npm ci) first`);
const { loadMicroPython } = await import(pathToFileURL(loader).href);

// Our own line buffering: the loader's built-in one silently keeps a final line
// that lacks "\n", and we want each line out as soon as it is complete so long
// runs show progress.
function lineWriter(stream) {
  let buf = [];
  const flush = () => {
    if (buf.length) stream.write(Buffer.from(buf));
    buf = [];
  };
  const put = (bytes) => {
    for (const b of bytes) {
      buf.push(b);
      if (b === 10 || buf.length >= 8192) flush();
    }
  };
  return { put, flush };
}
// A reader that goes away early (`| head`) is not an error worth a stack
// trace; end quietly with the status a SIGPIPE-killed process would have.
for (const s of [process.stdout, process.stderr]) {
  s.on("error", (e) => process.exit(e.code === "EPIPE" ? 141 : 2));
}
const out = lineWriter(process.stdout);
const err = lineWriter(process.stderr);
const flushAll = () => { out.flush(); err.flush(); };
function finish(code) {
  flushAll();
  process.exit(code);
}
// Drop the driver's own frames (compiled as "<stdin>"); the script's frames
// carry their device paths.
function printTraceback(text) {
  flushAll();
  process.stderr.write(text.replace(/^ {2}File "<stdin>".*\n/gm, ""));
}

const mp = await loadMicroPython({ heapsize: heap, linebuffer: false, stdout: out.put, stderr: err.put });

// ---- populate the in-memory filesystem -------------------------------------
function copyTree(hostDir, devDir) {
  mp.FS.mkdirTree(devDir);
  for (const name of fs.readdirSync(hostDir)) {
    if (name === "__pycache__" || name.startsWith(".")) continue;
    const h = path.join(hostDir, name);
    const d = path.posix.join(devDir, name);
    const st = fs.statSync(h);
    if (st.isDirectory()) copyTree(h, d);
    else if (st.isFile() && COPY_EXTS.has(path.extname(name))) mp.FS.writeFile(d, fs.readFileSync(h));
  }
}
for (const { host, dev } of mounts) copyTree(host, dev);

// A script that lives inside a --path folder keeps its place there (so its
// siblings are importable as on the device); any other script goes to /script.
let scriptDev = null;
for (const { host, dev } of mounts) {
  const rel = path.relative(host, scriptHost);
  if (!rel.startsWith("..") && !path.isAbsolute(rel)) scriptDev = path.posix.join(dev, ...rel.split(path.sep));
}
scriptDev ??= "/script/" + path.basename(scriptHost);
mp.FS.mkdirTree(path.posix.dirname(scriptDev));
mp.FS.writeFile(scriptDev, fs.readFileSync(scriptHost));

const sysPath = [...new Set([path.posix.dirname(scriptDev), "", ".frozen", ...mounts.map((m) => m.dev), "/lib"])];

// ---- run --------------------------------------------------------------------
// Python reports back through this module: exit(rc) for sys.exit() in the
// synchronous part; asyncStarted()/mainDone(rc) bracket each asyncio.run().
let pendingMains = 0;
mp.registerJsModule("_mpy_host", {
  exit: finish,
  asyncStarted: () => { pendingMains++; },
  mainDone: (rc, traceback) => {
    if (traceback) printTraceback(traceback);
    if (rc !== 0 || --pendingMains === 0) finish(rc);
  },
});

// Everything lives inside one function that removes itself from __main__
// before running the script, so the script sees a clean module namespace.
const driver = `
def __mpy_main(argv, path, script):
    import sys, io, asyncio, _mpy_host
    g = globals()
    del g['__mpy_main']
    g['__file__'] = script
    sys.argv[:] = argv
    sys.path[:] = path

    def exit_status(e):  # SystemExit -> process status, as CPython does it
        c = e.args[0] if e.args else None
        if c is None:
            return 0
        if isinstance(c, (int, bool)):
            return int(c)
        print(c, file=sys.stderr)
        return 1

    async def main_task(coro):
        rc, tb = 0, None
        try:
            await coro
        except SystemExit as e:
            rc = exit_status(e)
        except BaseException as e:
            buf = io.StringIO()
            sys.print_exception(e, buf)
            rc, tb = 1, buf.getvalue()
        _mpy_host.mainDone(rc, tb)

    def run(coro):
        _mpy_host.asyncStarted()
        return asyncio.create_task(main_task(coro))

    asyncio.run = run
    try:
        execfile(script, g)
    except SystemExit as e:
        _mpy_host.exit(exit_status(e))

__mpy_main(${JSON.stringify([scriptArg, ...scriptArgs])}, ${JSON.stringify(sysPath)}, ${JSON.stringify(scriptDev)})
`;

try {
  mp.runPython(driver);
} catch (e) {
  if (e?.name !== "PythonError") throw e;
  printTraceback(e.message);
  finish(1);
}
// Synchronous part finished. If asyncio.run() scheduled work, the JS event loop
// keeps the process alive and mainDone() ends it; otherwise this was a clean exit.
flushAll();
