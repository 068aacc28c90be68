"""The button mode: one button clicks through the offered moves, a long press confirms."""

from app.picker import ButtonPicker
from hal.buttons import LONG_MS, Button


class Hand:
    """A button pin (active low) pressed during the given (start, end) spans."""

    def __init__(self, presses):
        self.presses = presses
        self.now = 0

    def __call__(self):
        for a, b in self.presses:
            if a <= self.now < b:
                return 0
        return 1


def pick(presses, until, candidates, picker=None):
    hand = Hand(presses)
    picker = picker or ButtonPicker(Button(hand))
    events = [picker.offer(candidates)]
    for t in range(until):
        hand.now = t
        event = picker.poll(t)
        if event:
            events.append(event)
    return events


def test_clicks_cycle_the_candidates_and_a_long_press_confirms():
    moves = [("m", 0, 3), ("m", 1, 3), ("m", 1, 5)]
    clicks = [(100 + 200 * k, 200 + 200 * k) for k in range(4)]
    events = pick(clicks + [(1000, 1000 + LONG_MS + 100)], 2000, moves)
    # every press is answered at once: the candidate a long press would take, held
    assert events == [
        ("pick", moves[0]), ("hold", moves[0]), ("pick", moves[1]), ("hold", moves[1]), ("pick", moves[2]),
        ("hold", moves[2]), ("pick", moves[0]),  # after the last comes the first again
        ("hold", moves[0]), ("pick", moves[1]),
        ("hold", moves[1]), ("confirm", moves[1]),
    ]


def test_a_confirmed_offer_is_used_up():
    hand = Hand([(100, 100 + LONG_MS + 50), (1200, 1300), (1500, 1500 + LONG_MS + 50)])
    picker = ButtonPicker(Button(hand))
    assert picker.offer("ab") == ("pick", "a")
    events = []
    for t in range(3000):
        hand.now = t
        event = picker.poll(t)
        if event:
            events.append((t, event))
    # the release of the long press picks nothing; later presses do nothing
    assert [e for e in events if e[1][0] != "hold"] == [(100 + LONG_MS, ("confirm", "a"))]
    assert [e[1] for e in events if e[1][0] == "hold"] == [("hold", "a")]


def test_a_long_press_held_into_the_next_offer_does_not_pick():
    hand = Hand([(100, 2000)])
    picker = ButtonPicker(Button(hand))
    picker.offer([1, 2])
    events = []
    for t in range(2500):
        hand.now = t
        if t == 1000:
            events.append(picker.offer([3, 4]))
        event = picker.poll(t)
        if event:
            events.append(event)
    assert events == [("hold", 1), ("confirm", 1), ("pick", 3)]


def test_without_an_offer_presses_do_nothing():
    events = pick([(100, 200), (300, 300 + LONG_MS + 10)], 1500, [])
    assert events == [None]


def test_a_new_offer_replaces_the_old_one():
    hand = Hand([(100, 200)])
    picker = ButtonPicker(Button(hand))
    picker.offer("xyz")
    for t in range(150):
        hand.now = t
        picker.poll(t)
    assert picker.offer("pq") == ("pick", "p")
    events = []
    for t in range(150, 400):
        hand.now = t
        event = picker.poll(t)
        if event:
            events.append(event)
    assert events == [("pick", "q")]
