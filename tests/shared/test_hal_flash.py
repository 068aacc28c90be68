"""The paced flash: a say before and after each erase and after each page
program, reads and writes passed on to the flash as they came."""

from hal.flash import ERASE, Paced


class Flash:
    """A flash as rp2.Flash answers littlefs: what was asked of it, in order."""

    def __init__(self, seen):
        self.seen = seen

    def readblocks(self, block, buf, offset=0):
        self.seen.append(("read", block))

    def writeblocks(self, *args):
        self.seen.append(("write",) + args[:1] + args[2:])

    def ioctl(self, op, arg):
        self.seen.append(("ioctl", op, arg))
        return 4096 if op == 5 else 0


def test_the_game_has_its_say_around_each_erase_and_after_each_program_never_on_a_read():
    seen = []
    paced = Paced(Flash(seen))
    paced.between = lambda erase: seen.append("before erase" if erase else "after")
    paced.readblocks(3, bytearray(32), 0)
    assert paced.ioctl(5, 0) == 4096  # the block size: no write, no say
    assert paced.ioctl(ERASE, 7) == 0
    paced.writeblocks(7, b"x" * 256, 0)
    paced.writeblocks(8, b"y" * 256)  # without an offset rp2.Flash erases first: passed on so
    assert seen == [("read", 3), ("ioctl", 5, 0), "before erase", ("ioctl", ERASE, 7), "after",
                    ("write", 7, 0), "after", ("write", 8), "after"]


def test_without_a_say_the_flash_is_written_as_it_would_be():
    seen = []
    paced = Paced(Flash(seen))
    paced.ioctl(ERASE, 1)
    paced.writeblocks(1, b"z", 4)
    assert seen == [("ioctl", ERASE, 1), ("write", 1, 4)]
