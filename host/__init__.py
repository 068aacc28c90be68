"""PC-side tools. They run the firmware's own code, so put it on the path."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
BOARDS = os.path.join(ROOT, "boards")
if FIRMWARE not in sys.path:
    sys.path.insert(0, FIRMWARE)
