"""Atomic saves: a power cut at every byte and between every step of a save
always leaves a good copy, and a damaged file is refused with a message.

A power cut is simulated (``host.rig.cut``) by letting a save take a
given number of steps (one byte written, one rename, one remove) and then
stopping it dead; the bytes already written stay in the file, as a cut
write leaves them."""

import os

from hal.storage import LIMIT, NEW, OLD, load, pack, save, unpack
from host.rig import cut
from support import done, fresh, raises, wipe


def cut_save(path, data, steps, refuse=False):
    """Save, with the power cut after ``steps`` steps; True if it finished."""
    return cut(lambda: save(path, data), steps, refuse)


def write(path, blob):
    with open(path, "wb") as f:
        f.write(blob)


def files(folder):
    return sorted(os.listdir(folder))


def test_save_and_load_round_trip():
    folder = fresh()
    path = folder + "/game.sav"
    assert load(path) == (None, "no save at %s" % path)
    save(path, b'{"turn": 1}')
    assert load(path) == (b'{"turn": 1}', "")
    save(path, "{\"turn\": 2, \"who\": \"Zo\xeb\"}")
    assert load(path) == ("{\"turn\": 2, \"who\": \"Zo\xeb\"}".encode(), "")
    # the previous save is kept as the fallback
    assert files(folder) == ["game.sav", "game.sav" + OLD]
    assert unpack(open(path + OLD, "rb").read()) == b'{"turn": 1}'
    # any bytes, newlines and all
    save(path, bytes(range(256)) + b"\nsave1 3 00000000\n")
    assert load(path) == (bytes(range(256)) + b"\nsave1 3 00000000\n", "")
    done(folder)


def test_the_file_carries_length_and_checksum_in_a_header_line():
    assert pack(b"hello") == b"save1 5 3610a686\nhello"
    assert pack(b"") == b"save1 0 00000000\n"


def test_a_power_cut_at_every_step_of_a_save_leaves_a_good_copy():
    folder = fresh()
    path = folder + "/game.sav"
    old, new = b'{"turn": 7, "pos": [1, 2]}', b'{"turn": 8, "pos": [1, 5]}'
    # refuse: renames cannot replace a file, so the save removes game.sav.old first
    for refuse in (False, True):
        steps = 0
        while True:
            wipe(folder)
            save(path, b"first")
            save(path, old)
            finished = cut_save(path, new, steps, refuse)
            data, note = load(path)
            assert data == (new if finished else data)
            assert data in (old, new), "cut after %d steps: %r %s" % (steps, data, note)
            # the next save completes whatever state the cut left
            save(path, b"next")
            assert load(path) == (b"next", "")
            if finished:
                break
            steps += 1
        # every byte of the copy, two renames (and a remove), and the count was checked
        assert steps == len(pack(new)) + (3 if refuse else 2)
    done(folder)


def test_a_cut_very_first_save_leaves_no_save_or_the_new_one():
    folder = fresh()
    path = folder + "/game.sav"
    for steps in range(len(pack(b"abc")) + 2):
        wipe(folder)
        finished = cut_save(path, b"abc", steps)
        data, note = load(path)
        assert data == (b"abc" if finished else data) and data in (None, b"abc")
        if data is None:
            assert "game.sav" in note
    done(folder)


def test_after_two_cuts_in_a_row_load_gives_the_newest_data_or_what_it_gave_before():
    # every pair of cut points of two saves in a row, from a board with two saves on it
    folder = fresh()
    path = folder + "/game.sav"
    first, second = b"X1", b"Y22"
    for a in range(len(pack(first)) + 3):
        for b in range(len(pack(second)) + 3):
            wipe(folder)
            save(path, b"A")
            save(path, b"B")
            cut_save(path, first, a)
            before, _ = load(path)
            assert before in (b"B", first)
            cut_save(path, second, b)
            data, note = load(path)
            assert data in (before, second), "cuts %d, %d: %r, before %r (%s)" % (a, b, data, before, note)
    done(folder)


def test_a_corrupt_save_falls_back_to_the_previous_copy_with_a_message():
    folder = fresh()
    path = folder + "/game.sav"
    save(path, b"old state")
    save(path, b"new state")
    good = open(path, "rb").read()
    for i in range(len(good)):
        for bits in (0x01, 0x80):
            flipped = bytearray(good)
            flipped[i] ^= bits
            write(path, flipped)
            data, note = load(path)
            assert data == b"old state", "byte %d ^ %d" % (i, bits)
            assert note.startswith(path + ": ") and note.endswith("using " + path + OLD)
    for k in range(len(good)):
        write(path, good[:k])
        assert load(path)[0] == b"old state", "cut at %d" % k
    done(folder)


def test_corruption_messages_say_what_is_wrong():
    for blob, message in (
        (b"", "no header line"),
        (b"garbage\n", "not a save file"),
        (b"save1 x 00000000\n", "bad header"),
        (b"save1 9 3610a686\nhello", "5 bytes of data, expected 9"),
        (b"save1 5 3610a687\nhello", "checksum mismatch"),
    ):
        assert str(raises(ValueError, unpack, blob)) == message


def test_every_copy_bad_gives_none_and_names_them_all():
    folder = fresh()
    path = folder + "/game.sav"
    write(path, b"junk")
    write(path + OLD, b"save1 1 00000000\nx")
    data, note = load(path)
    assert data is None
    assert note == "%s: no header line; %s: checksum mismatch; no good copy left" % (path, path + OLD)
    # and saving again works
    save(path, b"fresh")
    assert load(path) == (b"fresh", "")
    done(folder)


def test_an_oversized_file_is_refused_without_reading_it_all():
    folder = fresh()
    path = folder + "/game.sav"
    write(path, b"x" * (LIMIT + 10))
    data, note = load(path)
    assert data is None and "larger than" in note
    done(folder)


def test_a_complete_new_copy_is_used_when_the_cut_came_between_the_renames():
    folder = fresh()
    path = folder + "/game.sav"
    save(path, b"A")
    save(path, b"B")
    # cut after the write and the first rename: no game.sav
    assert not cut_save(path, b"C", len(pack(b"C")) + 1)
    assert files(folder) == ["game.sav" + NEW, "game.sav" + OLD]
    assert load(path) == (b"C", "")
    # a save cut in its write does not lose C: the earlier save is finished first
    assert not cut_save(path, b"D", 3)
    assert load(path) == (b"C", "")
    done(folder)
