"""Chi-square fairness of the die and the sticks over the real random source."""

import os

from hal import Chance

ROLLS = 60_000
# chi-square critical values at p = 0.0001: a fair die fails once in 10,000 runs
CRITICAL_5_DOF = 25.74
CRITICAL_7_DOF = 29.88


def chi_square(counts, expected):
    return sum((c - e) ** 2 / e for c, e in zip(counts, expected))


def test_the_d6_is_fair():
    chance = Chance(os.urandom)
    counts = [0] * 6
    for _ in range(ROLLS):
        counts[chance.d6() - 1] += 1
    assert chi_square(counts, [ROLLS / 6] * 6) < CRITICAL_5_DOF, counts


def test_the_sticks_are_fair_and_give_the_mehen_odds():
    chance = Chance(os.urandom)
    counts = [0] * 8
    for _ in range(ROLLS):
        counts[chance.sticks()] += 1
    assert chi_square(counts, [ROLLS / 8] * 8) < CRITICAL_7_DOF, counts


def test_the_test_rejects_a_biased_die():
    biased = [0] * 6
    for byte in os.urandom(ROLLS):
        biased[min(byte % 8, 5)] += 1  # 3 bits folded onto 6 faces: a 6 comes up 3 times as often
    assert chi_square(biased, [ROLLS / 6] * 6) > CRITICAL_5_DOF



def test_a_throw_takes_the_bytes_drawn_ahead_and_none_at_the_press():
    from host.rig import Bytes

    script = Bytes([255, 3, 0, 200, 5, 7, 251, 9])
    calls = []

    def urandom(n):
        calls.append(n)
        return script(n)

    chance = Chance(urandom, 4)
    assert chance.dice(2) == (4, 1) and calls == [4]  # 255 is thrown away: three of the four bytes drawn ahead; 200 is left
    chance.refill()  # after the throw's frame is sent: four new bytes (200, unused, is never used)
    assert calls == [4, 4]
    assert chance.dice(2) == (6, 2) and chance.dice(2) == (6, 4) and calls == [4, 4]  # nothing drawn at a press
    assert chance.dice(2) == (4, 1) and calls == [4, 4, 1, 1, 1]  # past the bytes drawn ahead: drawn then
