"""The Pico's filesystem as a file on the PC: the littlefs v2 image that
MicroPython's RPI_PICO build mounts at flash offset 0xA0000, 352 blocks of
4096 bytes (read and lookahead sizes 32, program size 256: the rp2 port's
_boot.py mounts it so, as the flash programs whole 256-byte pages; read
with another program size, a commit a power cut tore reads as corrupt;
cache 1024 and block cycles 100, as MicroPython's extmod/vfs_lfsx.c sets
them: a file of a few hundred bytes the Pico keeps inline reads as corrupt
with a smaller cache). littlefs-python builds littlefs 2.11, the version
MicroPython 1.28 builds in (lib/littlefs).

``image(folder)`` makes one holding a folder's files (a build/ as ``make
flash`` would leave it); ``read(image)`` gives back every file in one;
``PicoFiles`` works on one as the firmware does, with a power cut.
"""

import errno
import io
from pathlib import Path

from littlefs import LittleFS, LittleFSError, lfs
from littlefs.context import UserContext

from host.rig import Cut

BLOCK = 4096
BLOCKS = 352
CACHE = 1024  # MicroPython's vfs_lfs: four times the larger of the read and program sizes
CYCLES = 100  # MicroPython's vfs_lfs: erases of a metadata pair before littlefs moves it
FS_BYTES = BLOCK * BLOCKS
S_IFDIR, S_IFREG = 0x4000, 0x8000


def _fs(data=None, cut=None, torn=None):
    """littlefs on a copy of the image ``data`` (None: formatted blank), the power cut as ``_Flash`` says."""
    fs = LittleFS(context=_Flash(data, cut, torn), block_size=BLOCK, block_count=BLOCKS, read_size=32,
                  prog_size=256, lookahead_size=32, cache_size=CACHE, block_cycles=CYCLES, mount=False)
    if data is None:
        fs.format()
    fs.mount()
    return fs


def image(folder=None):
    """A formatted image holding ``folder``'s files (empty without one)."""
    fs = _fs()
    if folder is not None:
        folder = Path(folder)
        for path in sorted(folder.rglob("*")):
            rel = path.relative_to(folder).as_posix()
            if path.is_dir():
                fs.makedirs(rel, exist_ok=True)
            else:
                with fs.open(rel, "wb") as f:
                    f.write(path.read_bytes())
    return bytes(fs.context.buffer)


def read(data):
    """{path: bytes} of every file in an image."""
    fs = _fs(bytes(data))
    files = {}
    for top, _, names in fs.walk("/"):
        for name in names:
            path = (top.rstrip("/") + "/" + name).lstrip("/")
            with fs.open(path, "rb") as f:
                files[path] = f.read()
    return files


class _Flash(UserContext):
    """The blocks (a copy of an image, or blank), with the power cut just
    before write number ``cut``, or inside it with ``torn`` (0 to 1): the
    flash chip's datasheet leaves the bytes an erase or a program cut by a
    power loss was changing undefined; here a prefix of the write, that
    fraction of its bytes, is done and the rest left as it was."""

    def __init__(self, data, cut, torn):
        if data is not None and len(data) != FS_BYTES:
            raise ValueError("a Pico filesystem image is %d bytes, not %d" % (FS_BYTES, len(data)))
        super().__init__(buffer=bytearray(b"\xff" * FS_BYTES if data is None else data))
        self.cut, self.torn = cut, torn
        self.writes = 0  # erases and programs done
        self.off = False

    def done(self, size):
        """How many bytes of a write of ``size`` get done (all while the power is on)."""
        if self.off:
            return 0
        if self.writes == self.cut:
            self.off = True
            return int((self.torn or 0) * size)
        self.writes += 1
        return size

    def prog(self, cfg, block, off, data):
        done = self.done(len(data))
        if not self.off:
            return super().prog(cfg, block, off, data)
        start = block * BLOCK + off
        # programming only clears bits, as NOR flash does
        self.buffer[start:start + done] = bytes(a & b for a, b in zip(self.buffer[start:start + done], data))
        return -errno.EIO

    def erase(self, cfg, block):
        done = self.done(BLOCK)
        if not self.off:
            return super().erase(cfg, block)
        self.buffer[block * BLOCK:block * BLOCK + done] = b"\xff" * done
        return -errno.EIO


class PicoFiles:
    """The file functions the firmware's ``hal.storage`` and ``app.keeper``
    use (``stat``, ``rename``, ``remove``, ``mkdir`` of ``os``, and
    ``open``) on a Pico's filesystem ``image``, with the power cut just
    before its write number ``cut`` (an erase or a page program, from 0;
    None: never): that write and every one after it never happen, as on a
    Pico switched off; with ``torn`` (0 to 1), the cut write is torn, that
    fraction of its bytes done (as ``_Flash`` says). The call that meets the
    cut, and any after it, raise ``host.rig.Cut``. ``writes`` counts
    the writes done; ``image()`` is the flash as the Pico finds it at its
    next start. A file written is handed to littlefs whole when it is closed
    (as the Pico's littlefs commits it)."""

    def __init__(self, image, cut=None, torn=None):
        self.fs = _fs(image, cut, torn)
        self.flash = self.fs.context

    @property
    def writes(self):
        return self.flash.writes

    def image(self):
        return bytes(self.flash.buffer)

    def _do(self, path, call, *args):
        """``call(*args)``, littlefs's errors raised as OSError, as the Pico's
        VfsLfs2 raises them; once the power is off, Cut (nothing runs on)."""
        if self.flash.off:
            raise Cut()
        try:
            return call(*args)
        except LittleFSError as err:
            if self.flash.off:
                raise Cut()
            raise OSError(-err.code, "%s: %s" % (err.name, path))

    def stat(self, path):
        st = self._do(path, self.fs.stat, path)
        return (S_IFDIR if st.type == st.TYPE_DIR else S_IFREG, 0, 0, 0, 0, 0, st.size, 0, 0, 0)

    def rename(self, old, new):
        self._do(old, self.fs.rename, old, new)

    def remove(self, path):
        self._do(path, self.fs.remove, path)

    def mkdir(self, path):
        self._do(path, self.fs.mkdir, path)

    def open(self, path, mode="rb"):
        """A file in binary mode, as the firmware opens its saves."""
        if "r" in mode:
            with self._do(path, self.fs.open, path, "rb") as f:
                return io.BytesIO(f.read())
        return _Written(self, path, mode)


class _Written(io.BytesIO):
    """A file being written: handed to littlefs at its close."""

    def __init__(self, files, path, mode):
        super().__init__()
        self.files, self.path, self.mode = files, path, mode

    def close(self):
        if not self.closed:
            data = self.getvalue()
            super().close()
            fs, do = self.files.fs.fs, self.files._do
            handle = do(self.path, lfs.file_open, fs, self.path, "ab" if "a" in self.mode else "wb")
            try:
                do(self.path, lfs.file_write, fs, handle, data)
            finally:
                do(self.path, lfs.file_close, fs, handle)
