"""Chi-square fairness of the die and the sticks over the real random source."""

import os

from hal.die import Chance

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
