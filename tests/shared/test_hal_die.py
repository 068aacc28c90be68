"""The electronic die's random source: exact fairness by construction."""

from hal import Chance
from host.rig import Bytes


def test_every_byte_maps_to_a_face_equally_often_or_is_rejected():
    counts = [0] * 7
    rejected = 0
    for byte in range(256):
        source = Bytes([byte, 0])
        value = Chance(source).d6()
        if source.at == 2:  # the first byte was thrown away, the 0 used
            rejected += 1
        else:
            counts[value] += 1
    assert counts[1:] == [42] * 6 and rejected == 4


def test_a_rejected_byte_is_drawn_again():
    assert Chance(Bytes([255, 253, 252, 9])).d6() == 4


def test_sticks_use_three_bits_each_equally_likely():
    seen = {}
    for byte in range(256):
        sticks = Chance(Bytes([byte])).sticks()
        seen[sticks] = seen.get(sticks, 0) + 1
    assert sorted(seen) == list(range(8)) and set(seen.values()) == {32}
