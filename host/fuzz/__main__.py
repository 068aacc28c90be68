"""make fuzz: every campaign of host/fuzz at length, one figure line each.

    python -m host.fuzz [--cases N] [--seed S] [--only NAME]

Exits 1 when a figure that must be 0 is not.
"""

import argparse
import importlib
import pkgutil
import sys
import time

import host.fuzz as package
from host.fuzz import failures


def campaigns():
    """Every campaign module of the package, sorted by name."""
    names = sorted(m.name for m in pkgutil.iter_modules(package.__path__) if m.name != "__main__")
    return [importlib.import_module("host.fuzz." + name) for name in names]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host.fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, help="cases per campaign (default: each campaign's own)")
    parser.add_argument("--seed", type=int, default=1, help="the seed of every campaign (default 1)")
    parser.add_argument("--only", help="run only the campaign of this name")
    args = parser.parse_args(argv)
    chosen = [m for m in campaigns() if args.only in (None, m.NAME)]
    if not chosen:
        parser.error("no campaign %r (known: %s)" % (args.only, ", ".join(m.NAME for m in campaigns())))
    failed = False
    for n, module in enumerate(chosen, 1):
        # a campaign can run for minutes: say which is under way
        print("fuzz: %s (%d of %d) ..." % (module.NAME, n, len(chosen)), file=sys.stderr, flush=True)
        started = time.monotonic()
        line = module.run(args.cases or module.CASES, args.seed)
        print("%s  (%.0f s)" % (line, time.monotonic() - started), flush=True)
        failed = failed or bool(failures(line))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
