"""Button mode: on a board without piece sensors one button picks the move.

The controller offers the candidate moves (any values); a click steps to the
next one (after the last comes the first again), a long press confirms the
current one. ``poll(now)`` returns ``None`` or an event:

    ("pick", candidate)     now the current candidate: light it (``offer``
                            returns this event for the first candidate)
    ("confirm", candidate)  the player chose it; the offer is used up
"""

from hal.buttons import CLICK, LONG, PRESS


class ButtonPicker:
    """Button mode: pick among offered candidates with one ``hal.buttons.Button``.

    A press gives ``("hold", c)``, ``c`` the candidate a long press would
    confirm, so the board answers the touch at once; the click that follows
    gives ``("pick", next)``, a long press ``("confirm", c)``."""

    def __init__(self, button):
        self.button = button
        self._picks = ()
        self._holds = ()
        self._confirms = ()
        self._index = -1

    def offer(self, candidates):
        """Offer these candidates; returns the pick of the first (``None``
        for an empty sequence, which withdraws the offer)."""
        self._picks = tuple(("pick", c) for c in candidates)
        self._holds = tuple(("hold", c) for c in candidates)
        self._confirms = tuple(("confirm", c) for c in candidates)
        self._index = 0 if self._picks else -1
        return self._picks[0] if self._picks else None

    def poll(self, now):
        event = self.button.poll(now)
        if self._index < 0:
            return None
        if event == PRESS:
            return self._holds[self._index]
        if event == CLICK:
            self._index = (self._index + 1) % len(self._picks)
            return self._picks[self._index]
        if event == LONG:
            chosen = self._confirms[self._index]
            self._index = -1  # the offer is used up; keeping its tuples allocates nothing
            return chosen
        return None
