"""make sim: the board in a browser.

    python -m host.sim.web [--port N] [--host ADDRESS] [--timeout S]
"""

import argparse
import sys

from host.sim.web.server import TIMEOUT_S, serve


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host.sim.web", description="The board in a browser.")
    parser.add_argument("--port", type=int, default=8000, help="the port to listen on (default 8000; 0 picks a free one)")
    parser.add_argument("--timeout", type=float, default=TIMEOUT_S,
                        help="seconds a connection may take to send a request (default %d)" % TIMEOUT_S)
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this PC only)")
    args = parser.parse_args(argv)
    return serve(args.host, args.port, "make sim PORT=8001",
                 lambda server: "The board simulator is running: open %s in a browser (Ctrl-C stops it)" % server.url,
                 timeout_s=args.timeout)


if __name__ == "__main__":
    sys.exit(main())
