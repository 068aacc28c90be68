"""Run the shared tests without pytest, on MicroPython or CPython.

    runner.py FIRMWARE_DIR [GAMES]

Imports every module of FIRMWARE_DIR/rules (so a rules module that needs
something MicroPython lacks fails here) but viper.py, which only the Pico
compiles (tests/test_vpico.py runs it there), then runs every ``test_*`` function
of every ``test_*.py`` beside this file. Prints one line per test, what the
tests reported, and a closing "N passed, N failed"; exits 1 on any failure.
The output is the same on both interpreters when they agree.
"""

import os
import sys

import support

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."


def main(argv):
    firmware = argv[1] if len(argv) > 1 else "firmware"
    passed = failed = 0
    for name in sorted(os.listdir(firmware + "/rules")):
        if name.endswith(".py") and name not in ("__init__.py", "viper.py"):
            try:
                __import__("rules." + name[:-3])
                print("PASS import rules.%s" % name[:-3])
                passed += 1
            except Exception as err:
                print("FAIL import rules.%s: %s: %s" % (name[:-3], type(err).__name__, err))
                failed += 1
    for name in sorted(os.listdir(_HERE)):
        if not (name.startswith("test_") and name.endswith(".py")):
            continue
        module = __import__(name[:-3])
        for test in sorted(dir(module)):
            fn = getattr(module, test)
            if not test.startswith("test_") or not callable(fn):
                continue
            label = "%s.%s" % (name[:-3], test)
            try:
                fn()
                print("PASS " + label)
                passed += 1
            except Exception as err:
                print("FAIL %s: %s: %s" % (label, type(err).__name__, err))
                failed += 1
    for key in sorted(support.REPORTS):
        print("REPORT %s: %s" % (key, support.REPORTS[key]))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
