"""The table around a board (``Table``): the simulators keep it beside the
simulated board (``host.sim.hands``), ``make vpico``'s page beside the
emulated one (``host.pico.vpico.page``)."""

from hal.sensors import LIFT_MS
from host.sim.web import layout

BOX = -1  # a piece from the box: nobody's until the game says whose
SWAP_MS = 3 * LIFT_MS  # a piece taken off a space, then another set down there: both are sensed


class Table:
    """What stands on a board's table, which no firmware knows: which pieces
    stand on which space (a stack can stand on a START or a tail), the pieces
    in the players' hands, and what a click does there. Its user gives the
    board (``_game``, ``sensors``, ``phys``, ``hand``) and the parts a hand
    touches: ``_switch(s, closed)`` (space ``s``'s reed), ``_beam(s)``,
    ``_turn(w, quarters)``, ``_later(ms, action)`` and ``_tracked()``
    (whether the game tracks pieces at all)."""

    def _set_up(self):
        """Every piece where the game has it, the hand empty: a board set up by hand.
        A piece is [owner, what is written on it, heading] (``layout.pieces``)."""
        where = layout.pieces(self._game)
        self.hand = []
        self.phys = where or [[] for _ in self._game.board.ids]
        for s in range(len(self.phys) if where else 0):
            self._sense(s)

    def _relabel(self):
        """Where the board agrees with the game, its pieces are the game's (the
        letter, the heading after a move, the owner of a piece from the box)."""
        where = layout.pieces(self._game)
        for s in range(len(where) if where else 0):
            if len(self.phys[s]) == len(where[s]):
                self.phys[s] = where[s]

    def _sense(self, s):
        """The space's sensor closes while any piece stands on it."""
        self._switch(s, bool(self.phys[s]))

    def _take(self, s):
        """Lift a piece off ``s``: from a stack, one of the player's whose move it is."""
        stack = self.phys[s]
        mine = [i for i in range(len(stack)) if stack[i][0] == self._game.actor]
        entry = [stack.pop(mine[-1] if mine else -1), s]
        self.hand.append(entry)
        self._sense(s)
        return entry

    def _place(self, s, entry):
        if entry in self.hand:
            self.hand.remove(entry)
        self.phys[s].append(entry[0])
        self._sense(s)

    def _swap(self, s, entry):
        """Take what stands on ``s`` off (all of a stack, so that its sensor
        opens), then set ``entry`` down there: how a capture is made."""
        if entry in self.hand:
            self.hand.remove(entry)
        while self.phys[s]:
            self._take(s)
        self._later(SWAP_MS, lambda: self._place(s, entry))

    def click_space(self, s):
        """What a click on a space does: lift a piece, put the one in hand, or both."""
        if not self.sensors:
            raise ValueError("this board has no piece sensors: button 1 shows the next move, a long press makes it")
        if not self._tracked():  # no pieces tracked: the space may be a pocket
            if self._game.board.kinds[s] == "pocket":
                self._beam(s)  # a counter drops through the beam
            return
        if not self.hand:
            if self.phys[s]:
                self._take(s)
            else:
                self._place(s, [[BOX, "", -1], -1])
            return
        held = self.hand[-1]
        if not self.phys[s] or held[1] == s:
            self._place(s, held)
        else:
            self._swap(s, held)

    def turn_wheel(self, w, quarters):
        """Turn a wheel: the pieces standing on its disc go round with it
        (``_turn`` moves them over the sensors; here they keep who they are)."""
        board = self._game.board
        cells = board.wheel_cells[9 * w:9 * w + 9]
        x0, y0 = board.xs[cells[4]], board.ys[cells[4]]  # the middle of the 3x3 block, which it turns about
        at = {(board.xs[s], board.ys[s]): s for s in cells}
        for _ in range(quarters & 3):
            moved = {}
            for s in cells:
                # a quarter clockwise (y grows downwards) takes (dx, dy) from the middle to (-dy, dx)
                moved[at[(x0 - (board.ys[s] - y0), y0 + board.xs[s] - x0)]] = self.phys[s]
            for s in cells:
                self.phys[s] = moved[s]
        self._turn(w, quarters)

    def table_act(self, what, n, request):
        """The page's actions on the table itself; whether ``what`` was one of them."""
        if what == "space" and 0 <= n < len(self.phys):
            self.click_space(n)
        elif what == "turn" and 0 <= n < len(getattr(self._game, "wheels", ())) and request.get("by") in (1, -1):
            self.turn_wheel(n, request["by"])
        elif what == "hand" and 0 <= n < len(self.hand):
            self.hand.append(self.hand.pop(n))  # this piece is the one to put down next
        elif what == "put_away" and self.hand:
            self.hand.pop()
        elif what == "set_up":
            self._set_up()
        else:
            return False
        return True
