"""The simulators: the firmware's controller on a simulated board, played on
this PC.

- ``terminal``: the board drawn in the terminal, played by typed commands
  (``python -m host.sim.terminal``: ``make play``, ``make watch``);
- ``web``: the board in a browser, played by clicks (``python -m
  host.sim.web``: ``make sim``);
- ``views``: each game's board as text and its events as sentences;
- ``screen``: a pixel's colour on a screen, as the pixel port sends it;
- what both play with: ``table`` (what stands on the table around the board),
  ``hands`` (the hands that act there, on the board's clock, the computer
  seats' included) and ``waits`` (what the board waits for now).
"""
