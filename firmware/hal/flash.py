"""The Pico's filesystem with a say between its flash writes.

While the RP2040 erases or programs its flash nothing runs from it (the XIP
is off), and a W25Q16JV sector erase takes 45 ms (400 ms at most; a page
program 0.4 ms). A save is a few of them, with littlefs's own work between:
run whole, it froze the dice for over 100 ms. MicroPython's littlefs reaches
the flash through a block device's ``readblocks``, ``writeblocks`` and
``ioctl``; ``Paced`` is the rp2 port's own ``rp2.Flash`` with
``between(erase)`` called before each erase (``erase`` True) and after each
erase and program (False), where the game lets an animation's frame out:
two frames are then an erase apart at most. ``between`` runs inside a
filesystem call and must not touch a file.
"""

ERASE = 6  # the block-device ioctl that erases a block (MicroPython's extmod/vfs.h)


class Paced:
    def __init__(self, flash):
        self.flash = flash
        self.readblocks = flash.readblocks  # reads go straight to the port's code, at its speed
        self.between = None

    def writeblocks(self, *args):
        # (the number of arguments matters: rp2.Flash erases first when no offset is given)
        self.flash.writeblocks(*args)
        self._between(False)

    def ioctl(self, op, arg):
        if op == ERASE:
            self._between(True)
        done = self.flash.ioctl(op, arg)
        if op == ERASE:
            self._between(False)
        return done

    def _between(self, erase):
        if self.between:
            self.between(erase)


def pace(between):
    """Mount the Pico's filesystem at / again, through ``Paced`` calling
    ``between``; the ``Paced`` (set its ``between`` to None to stop it), or
    None where it cannot be (another port or layout: the filesystem stays as
    it was)."""
    try:
        import rp2
        import vfs

        paced = Paced(rp2.Flash())
        fs = vfs.VfsLfs2(paced, progsize=256)  # as the rp2 port's _boot.py mounts it; read, not yet written
    except Exception:
        return None
    vfs.umount("/")
    vfs.mount(fs, "/")
    paced.between = between
    return paced
