"""The ids of a board's spaces (rules.board.Names): found by name, whatever
their lengths, and only as whole ids."""

from rules.board import Names

IDS = ["a1", "a10", "b1", "10", "a", "1b", "c22", "c2"]


def test_every_id_is_found_where_it_is():
    names = Names(IDS)
    for i, name in enumerate(IDS):
        assert names.index(name) == i
        assert name in names
        assert names[i] == name


def test_only_whole_ids_count():
    names = Names(IDS)
    for text in ("", "1", "a1a", "0a", "b1a", "2c", "c", "a1b1", "22", "c222"):
        assert text not in names
        try:
            names.index(text)
        except ValueError:
            continue
        raise AssertionError("%r was found" % text)
