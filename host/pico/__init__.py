"""The tools for a Pico, real or emulated.

- ``build``: the firmware compiled for the Pico, put on it and its REPL
  (``python -m host.pico.build``: ``make build``, ``make flash``, ``make repl``,
  ``make bringup``);
- ``live``: the board on USB followed in the browser page, and its record
  copied off (``python -m host.pico.live``: ``make live``, ``make pull``);
- ``vpico``: the real MicroPython on an emulated RP2040 and board
  (``python -m host.pico.vpico``: ``make vpico``, ``make calibrate``).
"""
