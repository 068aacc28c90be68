"""The board's hardware ports in one bundle, built on the Pico's pins or on a
simulated board's, and handed to the controller."""


class Ports:
    """The hardware the controller drives: ``pixels`` (hal.pixels.Pixels),
    ``buttons`` (one or two hal.buttons.Button: die rollers 1 and 2),
    ``chance`` (hal.die.Chance), and where the board has them ``sensors``
    (hal.sensors.Sensors; None for button mode), ``wheels`` (hal.wheels.Wheels),
    a flicking game's pocket ``beams`` (hal.beams.Beams) and its buttons on the
    sensor chain, ``panel`` (hal.buttons.ChainButtons; button i is the board
    file's ``buttons[i]``)."""

    def __init__(self, pixels, buttons, chance, sensors=None, wheels=None, beams=None, panel=None):
        self.pixels = pixels
        self.buttons = buttons
        self.chance = chance
        self.sensors = sensors
        self.wheels = wheels
        self.beams = beams
        self.panel = panel
