"""The pin map (``hardware/pins.json``): which Pico GPIO does what.

Roles are fixed names; a board uses the ones it needs. Every mistake a maker
can make in the file is refused with a message naming the role."""

REQUIRED = ("pixels", "die1", "die2")
# Tiddlee Snuka's pocket beams, one GPIO each: the pocket whose board file
# ``sensor`` index is n is on beam<n+1> (hal.beams)
BEAMS = ("beam1", "beam2", "beam3", "beam4", "beam5", "beam6")
# optional roles come in groups that are all present or all absent
GROUPS = (
    ("sensor_latch", "sensor_clock", "sensor_data"),
    ("wheel1_a", "wheel1_b"),
    ("wheel2_a", "wheel2_b"),
    ("wheel3_a", "wheel3_b"),
    ("wheel4_a", "wheel4_b"),
    BEAMS,
)
# GP0-GP22 and GP26-GP28 reach the Pico's header; GP23-GP25 and GP29 are used on the board itself
USABLE = tuple(range(23)) + (26, 27, 28)


class PinError(ValueError):
    """A pin map that cannot be wired as written."""


def load_pins(data):
    """Check a parsed pin map; return it as a dict role -> GPIO number."""
    if not isinstance(data, dict):
        raise PinError("pin map: the file must hold a JSON object of role: GPIO number")
    known = REQUIRED + tuple(role for group in GROUPS for role in group)
    owner = {}
    for role in data:
        if role not in known:
            raise PinError("pin map: unknown role %r (known: %s)" % (role, ", ".join(known)))
        gpio = data[role]
        if not isinstance(gpio, int) or isinstance(gpio, bool) or gpio not in USABLE:
            raise PinError("pin map: %r is %r; use a GPIO on the header: GP0-GP22 or GP26-GP28" % (role, gpio))
        if gpio in owner:
            raise PinError("pin map: GP%d is given to both %r and %r" % (gpio, owner[gpio], role))
        owner[gpio] = role
    for role in REQUIRED:
        if role not in data:
            raise PinError("pin map: role %r is missing" % role)
    for group in GROUPS:
        present = [role for role in group if role in data]
        if present and len(present) != len(group):
            missing = [role for role in group if role not in data]
            raise PinError("pin map: %r needs %s too" % (present[0], ", ".join(repr(r) for r in missing)))
    return dict(data)
