"""Move counts ("perft") for fixed Sniggle positions: the number of legal
moves after each of the 21 rolls (1,1), (1,2) ... (6,6), red to move.
A regression table: tests/test_sniggle_properties.py checks the same counts
against a plain step-by-step reference search. By hand, from the start with
(1,2): a 1 takes R1 to c1 or R2 to g1; a 2 takes R1 to b1, c2, d1, R2 to f1,
g2, h1, R3 over SR1 to c1, R4 over SR2 to g1 -- 10 moves, each leaving the
other die playable."""

from test_sniggle_rules import put, sniggle

ROLLS = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
POSITIONS = {
    # every piece on its starting square
    "start": (2, {}),
    # four red pieces in the open middle, every opponent about
    "open": (4, {"R1": "c5", "R2": "e6", "R3": "h5", "R4": "j6", "B1": "d8", "B2": "i8", "B3": "b4", "B4": "k4",
                 "G1": "c3", "G2": "j3", "G3": "f9", "G4": "g9", "Y1": "a7", "Y2": "l7", "Y3": "e3", "Y4": "h3"}),
    # the most moves found: four pieces together low in the middle (the speed benchmark's worst case)
    "cluster": (4, {"R1": "f1", "R2": "f2", "R3": "e2", "R4": "g2", "B1": "k7", "B2": "b8", "B3": "d5", "B4": "k1",
                    "G1": "c4", "G2": "l5", "G3": "g8", "G4": "i1", "Y1": "k8", "Y2": "a2", "Y3": "e7", "Y4": "a9"}),
    # the top rows: safe spaces, the way onto the trademark partly taken
    "top": (3, {"R1": "e8", "R2": "h8", "R3": "c9", "R4": "j9", "B1": "d10", "B2": "i10", "B3": "b6", "B4": "e10",
                "G1": "k6", "G2": "g10", "G3": "f7", "G4": "h9"}),
    # the Zone: exact counts, both paths, captures there
    "zone": (2, {"R1": "TM", "R2": ("Z28", 1), "R3": ("Z20", 1), "R4": "HR4",
                 "B1": ("Z1", 0), "B2": ("Z27", 1), "B3": "f10", "B4": "g10"}),
}
COUNTS = {
    "start": (2, 10, 18, 27, 37, 55, 8, 24, 33, 45, 61, 16, 41, 53, 69, 25, 62, 78, 37, 90, 53),
    "cluster": (7, 23, 38, 53, 73, 92, 16, 47, 62, 82, 101, 31, 77, 97, 116, 46, 112, 131, 66, 151, 85),
    "open": (12, 32, 40, 55, 64, 81, 20, 48, 63, 72, 89, 28, 71, 80, 97, 43, 95, 112, 52, 121, 69),
    "top": (12, 30, 30, 38, 42, 50, 18, 36, 44, 48, 56, 18, 44, 48, 56, 26, 56, 64, 30, 68, 38),
    "zone": (3, 6, 6, 6, 6, 5, 3, 6, 6, 6, 5, 3, 6, 6, 5, 3, 6, 5, 3, 5, 2),
}


def position(name):
    """The named position, red to roll."""
    players, spaces = POSITIONS[name]
    game = sniggle(players)
    game.opening = []
    for piece in sorted(spaces):
        space = spaces[piece]
        if isinstance(space, tuple):
            put(game, piece, space[0], space[1])
        else:
            put(game, piece, space)
    return game


def counts(name):
    found = []
    for roll in ROLLS:
        game = position(name)
        game.play(roll)
        found.append(len(game.legal()))
    return tuple(found)


def test_move_counts_from_the_start():
    assert counts("start") == COUNTS["start"]


def test_move_counts_in_a_cluster():
    assert counts("cluster") == COUNTS["cluster"]


def test_move_counts_in_the_open():
    assert counts("open") == COUNTS["open"]


def test_move_counts_at_the_top():
    assert counts("top") == COUNTS["top"]


def test_move_counts_in_the_zone():
    assert counts("zone") == COUNTS["zone"]


def test_the_order_of_the_dice_does_not_matter():
    for name in POSITIONS:
        for a, b in ((1, 6), (2, 5), (3, 4)):
            one, two = position(name), position(name)
            one.play((a, b))
            two.play((b, a))
            assert sorted(one.legal()) == sorted(two.legal())
