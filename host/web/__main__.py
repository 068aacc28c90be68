"""make sim: the board in a browser.

    python -m host.web [--port N] [--host ADDRESS] [--timeout S]
"""

import argparse
import signal
import sys

from host.web.server import TIMEOUT_S, make_server


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host.web", description="The board in a browser.")
    parser.add_argument("--port", type=int, default=8000, help="the port to listen on (default 8000; 0 picks a free one)")
    parser.add_argument("--timeout", type=float, default=TIMEOUT_S,
                        help="seconds a connection may take to send a request (default %d)" % TIMEOUT_S)
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this PC only)")
    args = parser.parse_args(argv)
    try:
        server = make_server(args.host, args.port, timeout_s=args.timeout)
    except OSError as err:
        print("error: cannot listen on %s port %d (%s); try another: make sim PORT=8001"
              % (args.host, args.port, err.strerror), file=sys.stderr)
        return 2
    print("The board simulator is running: open %s in a browser (Ctrl-C stops it)" % server.url, flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stopped as a service is: tidy up as for Ctrl-C
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
