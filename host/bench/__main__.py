"""``python -m host.bench [--check]``: make bench (``host.bench``)."""

import sys

from host.bench import main

sys.exit(main())
