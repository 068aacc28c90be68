"""Property tests (hypothesis, CPython only) for the input units: buttons,
wheel encoders, piece sensors and the 74HC165 reader, over random input
timelines made of short glitches and long steady stretches."""

from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

from test_hal_sensors import Chain

from hal.buttons import CLICK, LONG, LONG_MS, PRESS, RELEASE, STABLE_MS, Button
from hal.sensors import LIFT_MS, PLACE_MS, Sensors, ShiftIn
from hal.wheels import POSITION, SETTLE_MS, Wheels

pytestmark = pytest.mark.slow

# a stretch lasts a few ms (bounce, a glitch) or long enough to count
DURATIONS = st.one_of(st.integers(1, 15), st.integers(16, 1500))


def timeline(values):
    """A list of samples, one per ms, from (duration, value) stretches."""
    return [v for d, v in values for _ in range(d)]


def steady(samples, t, span, value):
    """The samples from t - span to t (inclusive) all equal ``value``."""
    return t >= span and all(s == value for s in samples[t - span:t + 1])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(DURATIONS, st.integers(0, 1)), min_size=1, max_size=12))
def test_button_events_follow_the_pin_and_never_double(stretches):
    levels = [1] + timeline(stretches)  # active low, up at power-up
    button = Button(lambda: levels[t])
    down = False
    pressed = 0
    long_sent = False
    rested = False  # read up for the stable time since the last release (or, before any, ever)
    ever = False  # rested at least once: down before that is a button held at power-up
    for t in range(len(levels)):
        event = button.poll(t)
        # at rest for the stable time, then touched: the press is this very read
        touched = levels[t] == 0 and t >= 1 and steady(levels, t - 1, STABLE_MS, 1)
        if touched and not down:
            assert event == PRESS
        if event == PRESS:
            # at once on a touch after a rest; else (down since polling began) once steady
            assert not down and (touched or not ever and steady(levels, t, STABLE_MS, 0))
            down, pressed, long_sent = True, t if touched else t - STABLE_MS, False
        elif event in (CLICK, RELEASE):
            # the contact read open as the release began, the stable time ago, and reads open now
            assert down and t >= STABLE_MS and levels[t - STABLE_MS] == 1 and levels[t] == 1
            assert event == (RELEASE if long_sent else CLICK)
            down = rested = False
        elif event == LONG:
            assert down and not long_sent and t - pressed >= LONG_MS
            long_sent = True
        else:
            assert event is None
            # nothing is missed: a level held for the stable time is the state, but
            # for a button down again before it rested after a release (a bounce
            # longer than the datasheet's, which may end a press early)
            if steady(levels, t, STABLE_MS, 0) and not (ever and not rested):
                assert down
                assert long_sent or t - pressed < LONG_MS or not steady(levels, t, 1, 0)
            if steady(levels, t, STABLE_MS, 1):
                assert not down
        if not down and steady(levels, t, STABLE_MS, 1):
            rested = ever = True


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.lists(st.tuples(DURATIONS, st.integers(0, 3)), max_size=8)),
                min_size=4, max_size=4))
def test_wheel_events_are_settled_steps_and_skips_are_errors(wheels_stretches):
    end = 2000 + max(sum(d for d, _ in stretches) for _, stretches in wheels_stretches)
    codes = []
    for start, stretches in wheels_stretches:
        samples = [POSITION[start]] + timeline((d, POSITION[p]) for d, p in stretches)
        codes.append(samples + [samples[-1]] * (end - len(samples)))
    wheels = Wheels([lambda w=w: codes[w][t] for w in range(4)])
    last = [-1] * 4
    for t in range(end):
        event = wheels.poll(t)
        if event is None:
            continue
        kind, w, new, old = event
        assert old == last[w] and steady(codes[w], t, SETTLE_MS, POSITION[new])
        step = (new - old) & 3
        assert kind == ("wheel" if old < 0 or step in (1, 3) else "wheel_error")
        assert old < 0 or step != 0
        last[w] = new
    # each wheel settles where its code rests
    assert last == [POSITION[c[-1]] for c in codes]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.tuples(DURATIONS, st.booleans()), max_size=8), min_size=10, max_size=10))
def test_sensor_changes_are_settled_and_passing_pieces_never_register(stretches):
    end = 1000 + max(sum(d for d, _ in s) for s in stretches)
    occupied = []
    for s in stretches:
        samples = [False] + timeline(s)
        occupied.append(samples + [samples[-1]] * (end - len(samples)))
    raw = bytearray(2)

    def read():
        raw[0] = raw[1] = 0xFF
        for n in range(10):
            if occupied[n][t]:
                raw[n >> 3] &= ~(1 << (n & 7))
        return raw

    sensors = Sensors(read, 10)
    state = [False] * 10
    for t in range(end):
        n = sensors.poll(t)
        if n is None:
            continue
        state[n] = not state[n]
        assert sensors.occupied(n) == state[n]
        assert steady(occupied[n], t, PLACE_MS if state[n] else LIFT_MS, state[n])
    assert state == [o[-1] for o in occupied]


@given(st.lists(st.integers(0, 255), min_size=1, max_size=16), st.integers(0, 1))
def test_the_shift_register_reader_returns_every_input(inputs, ds):
    chain = Chain(list(inputs), ds)
    shift = ShiftIn(chain.latch, chain.clock, chain.data, len(inputs))
    assert list(shift.read()) == inputs
    assert list(shift.read()) == inputs
