"""The board in a browser: ``python -m host.sim.web`` (``make sim``).

The firmware's controller runs here on a simulated board (``host.rig``)
with a clock that follows real time; the page only draws what it is sent and
sends back what the player does to the board. Modules:

- ``session``: one board, the hands at it (``host.sim.hands``) on a clock that
  follows real time, what the page is told, the record;
- ``layout``: what the page needs to draw a board from its ``boards/`` file;
- ``server``: the HTTP server (JSON for actions, Server-Sent Events for the
  pushed frames) and the page in ``static/``.
"""
