"""``make vpico``: an emulated Pico with MicroPython on this PC, for mpremote
and, with ``--web-port``, in the browser page played by clicks.

Prints the serial device (``/dev/pts/N``) to give mpremote and ``make flash
PORT=...`` (and the page's address), and runs until Ctrl-C. The Pico's files
are kept in the image file (default ``.vpico/fs.bin``), so they stay across
restarts.
"""

import argparse
import json
import os
import selectors
import shutil
import signal
import sys
import tempfile
import tty
from pathlib import Path

from host.pico.vpico import HERE, ROOT, MissingPicoFiles, pico_files, request

DEFAULT_IMAGE = ROOT / ".vpico" / "fs.bin"
# output kept while nobody reads the serial port; beyond it the oldest is dropped
BACKLOG = 1 << 20
VIEW_S = 0.5  # the board's lights are drawn again this often


def relay(master, node, parent=None, every=None, share=None):
    """Copy bytes between the pseudo-terminal and the emulator until it ends
    (or ``parent``, a pipe from the process that started us, closes);
    ``every()`` is called about twice a second. ``share`` (host.pico.vpico.page.Share)
    lets the page's link use the same USB port."""
    sel = selectors.DefaultSelector()
    sel.register(node.stdout, selectors.EVENT_READ)
    sel.register(master, selectors.EVENT_READ)
    if parent is not None:
        sel.register(parent, selectors.EVENT_READ)
    if share is not None:
        sel.register(share.sock, selectors.EVENT_READ)
    backlog = bytearray()
    while True:
        ready = sel.select(VIEW_S)
        if every and not ready:
            every()
        for key, events in ready:
            if key.fileobj is parent:
                if not os.read(parent, 1024):
                    return
            elif key.fileobj is node.stdout:
                data = os.read(node.stdout.fileno(), 65536)
                if not data:
                    return
                if share is not None:
                    data, to_page = share.split(data)
                    try:
                        share.sock.send(to_page)
                    except BlockingIOError:
                        pass  # the page fell behind: it asks again for what it lacks
                backlog += data
                del backlog[:-BACKLOG]
            elif share is not None and key.fileobj is share.sock:
                data = share.sock.recv(4096)
                if not data:
                    sel.unregister(share.sock)  # (the page's side is gone)
                elif share.page_talks():
                    node.stdin.write(data)
                    node.stdin.flush()
            elif events & selectors.EVENT_READ:
                try:
                    data = os.read(master, 4096)
                    if share is not None:
                        backlog += share.from_port()
                    node.stdin.write(data)
                    node.stdin.flush()
                except BrokenPipeError:
                    return
                except OSError:
                    pass  # nobody has the port open
        if backlog:
            try:
                del backlog[: os.write(master, backlog)]
            except BlockingIOError:
                pass  # the port is not being read: keep it for later
        sel.modify(master, selectors.EVENT_READ | (selectors.EVENT_WRITE if backlog else 0))


def lights(board, wire):
    """The board's spaces, and its other pixels in a row below, in the colours
    the pixels show (``wire``: the bytes the chain latched), as lines of text."""
    from host.sim.screen import ansi, wire_colours
    from host.sim.views import find
    from rules.games import new_game

    colours = wire_colours(wire)
    game = new_game(board["game"], board, 2)
    rows = {}
    for s, (row, col) in enumerate(find(game.name).spots(game.board)):
        rows.setdefault(row, []).append((col, game.board.leds[s]))
    lines = []
    for row in range(max(rows) + 1):
        line, at = "", 0
        for col, led in sorted(rows.get(row, ())):
            line += " " * (col - at) + ansi(colours[led], "  ")
            at = col + 2
        lines.append(line)
    spaces = set(game.board.leds)
    lines.append("")
    lines.append(" ".join(ansi(c, "  ") for i, c in enumerate(colours) if i not in spaces))
    return lines


def viewer(control, board):
    """Draws the board's lights under the port's details, as the Pico lights them."""
    drawn = [0]

    def draw():
        try:
            wire = bytes.fromhex(request(control, "pixels")["hex"])
        except (OSError, ValueError, RuntimeError):
            return
        text = lights(board, wire)
        # back up over the last picture and draw this one in its place
        sys.stdout.write("\x1b[%dF" % drawn[0] if drawn[0] else "")
        sys.stdout.write("\n".join(line + "\x1b[K" for line in text) + "\n")
        sys.stdout.flush()
        drawn[0] = len(text)

    return draw


def serve(args):
    import subprocess

    uf2, rom = pico_files()
    board = ROOT / "boards" / ("%s.json" % args.board)
    if not board.is_file():
        known = ", ".join(sorted(p.stem for p in (ROOT / "boards").glob("*.json")))
        raise SystemExit("error: no board %r (known: %s)" % (args.board, known))
    page = None
    if args.web_port is not None:
        from host.pico.vpico.page import Page

        try:
            page = Page("127.0.0.1", args.web_port, str(args.control))
        except OSError as err:
            print("error: cannot listen on port %d (%s); try another: make vpico WEB_PORT=%d"
                  % (args.web_port, err.strerror, args.web_port + 1), file=sys.stderr)
            return 2
    master, slave = os.openpty()
    tty.setraw(slave)  # no echo, no line editing: bytes pass as they are
    os.set_blocking(master, False)
    port = os.ttyname(slave)
    command = ["node", str(HERE / "main.mjs"), "--rom", str(rom), "--uf2", str(uf2), "--fs", str(args.fs),
               "--pins", str(args.pins), "--board", str(board), "--control", str(args.control),
               "--flash-times", args.flash_times] + (["--swap-chips", args.swap_chips] if args.swap_chips else [])
    node = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def stop(*_):
        node.terminate()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print("device:  %s" % port)
    print("control: %s" % args.control)
    print("files:   %s" % args.fs)
    print("board:   %s, wired as %s" % (args.board, args.pins))
    if page is not None:
        print("page:    %s   (the board, played by clicks)" % page.url)
        page.start()
    print("try:     make flash PORT=%s   (Ctrl-C here switches the virtual Pico off)" % port)
    sys.stdout.flush()
    view = None
    if sys.stdout.isatty() and not args.with_parent:
        print("lights:  the board as the Pico lights it (its data pin, decoded)\n")
        view = viewer(str(args.control), json.loads(board.read_text()))
    try:
        relay(master, node, sys.stdin.fileno() if args.with_parent else None, view, page and page.share)
    finally:
        if page is not None:
            page.close()
        node.terminate()
        node.wait()
        os.close(slave)
        os.close(master)
    return node.returncode if node.returncode and node.returncode > 0 else 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host.pico.vpico", description=__doc__.split("\n\n")[0])
    parser.add_argument("--fs", type=Path, default=DEFAULT_IMAGE, help="the Pico's filesystem image (default %(default)s)")
    parser.add_argument("--board", default=None, help="the board around the Pico (default: build/config.json's, else detour)")
    parser.add_argument("--pins", type=Path, default=ROOT / "hardware" / "pins.json", help="how the board is wired")
    parser.add_argument("--flash-times", choices=("typical", "max"), default="typical",
                        help="the flash chip's erase and program times: the datasheet's typical (default) or maximum")
    parser.add_argument("--swap-chips", metavar="J,K", help="a miswired board: chips J and K of the 74HC165 chain "
                        "soldered in each other's place (to try make bringup on)")
    parser.add_argument("--control", help="path of the control socket (default: in a temporary folder)")
    parser.add_argument("--web-port", type=int, help="also serve the board's page, played by clicks, on this port "
                        "(0: any free one)")
    parser.add_argument("--with-parent", action="store_true", help="end when standard input closes (for a parent process)")
    args = parser.parse_args(argv)
    if shutil.which("node") is None:
        print("make vpico needs node (Node.js 20): install it (Debian: apt install nodejs npm), then make setup",
              file=sys.stderr)
        return 1
    if args.board is None:
        try:
            args.board = json.loads((ROOT / "build" / "config.json").read_text())["board"]
        except (OSError, ValueError, KeyError):
            args.board = "detour"
    args.fs.parent.mkdir(parents=True, exist_ok=True)
    try:
        if args.control:
            return serve(args)
        with tempfile.TemporaryDirectory(prefix="vpico-") as tmp:
            args.control = Path(tmp) / "control.sock"
            return serve(args)
    except MissingPicoFiles as e:
        print("error: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
