"""The simulators: the firmware's controller on a simulated board, played on
this PC.

- ``terminal``: the board drawn in the terminal, played by typed commands
  (``python -m host.sim.terminal``: ``make play``, ``make watch``);
- ``web``: the board in a browser, played by clicks (``python -m
  host.sim.web``: ``make sim``);
- ``views``: each game's board as text and its events as sentences;
- ``screen``: a pixel's colour on a screen, as the pixel port sends it.
"""
