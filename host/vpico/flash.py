"""The Pico's filesystem as a file on the PC: the littlefs v2 image that
MicroPython's RPI_PICO build mounts at flash offset 0xA0000, 352 blocks of
4096 bytes (read and lookahead sizes 32, program size 256: the rp2 port's
_boot.py mounts it so, as the flash programs whole 256-byte pages; read
with another program size, a commit a power cut tore reads as corrupt;
cache 1024, as MicroPython gives it: a file of a few hundred bytes the Pico
keeps inline reads as corrupt with a smaller cache).

``image(folder)`` makes one holding a folder's files (a build/ as ``make
flash`` would leave it); ``read(image)`` gives back every file in one.
"""

from pathlib import Path

from littlefs import LittleFS

BLOCK = 4096
BLOCKS = 352
CACHE = 1024  # MicroPython's vfs_lfs: four times the larger of the read and program sizes
FS_BYTES = BLOCK * BLOCKS


def _fs(data=None):
    fs = LittleFS(block_size=BLOCK, block_count=BLOCKS, read_size=32, prog_size=256, lookahead_size=32,
                  cache_size=CACHE, mount=False)
    if data is None:
        fs.format()
    else:
        if len(data) != FS_BYTES:
            raise ValueError("a Pico filesystem image is %d bytes, not %d" % (FS_BYTES, len(data)))
        fs.context.buffer[:] = data
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
