"""The physical design, computed from the board files, ``hardware/pins.json``
and ``hardware/parts.json``:

- ``fields``: the magnet check, each piece's reed and the wheels' code magnets
  (magpylib);
- ``beams``: Tiddlee Snuka's pocket beams, lit and broken;
- ``power``: the USB plug-in through the soft start and the pixels' data line,
  in ngspice;
- ``wiring``: the wiring picture of every board, ``hardware/wiring-<board>.svg``.

``make hardware`` runs the first three, ``make wiring`` the last.
"""
