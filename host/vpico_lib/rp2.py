"""rp2 on the virtual Pico: the BOOTSEL button (scripted through the control
socket); PIO programs can be declared but state machines do not run."""

import _vpico


def bootsel_button():
    return _vpico.bootsel()


class PIO:
    IN_LOW = 0
    IN_HIGH = 1
    OUT_LOW = 2
    OUT_HIGH = 3
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1
    JOIN_NONE = 0
    JOIN_TX = 1
    JOIN_RX = 2

    def __init__(self, id):
        self.id = id


def asm_pio(**kwargs):
    def declare(program):
        return program

    return declare


class StateMachine:
    def __init__(self, *args, **kwargs):
        raise OSError("the virtual Pico does not run PIO state machines")
