"""Small atomic saves that survive a power cut at any moment.

``save(path, data)`` stores bytes (or text, as UTF-8); ``load(path)`` returns
``(data, note)``: the newest good copy and ``""``, or an older good copy and
a note saying what was wrong with the newer ones, or ``(None, note)`` when
there is no good copy at all. ``load`` never raises for a missing, cut or
corrupt file (a file it cannot even open is just missing).

File format: one header line, then the data:

    save1 <length of data, decimal> <CRC-32 of data, 8 hex digits>\\n<data>

The number after ``save`` is the format's version: a copy whose header
names a later one was written by newer firmware, and ``load`` raises
``Newer`` for it rather than calling it bad (``app.keeper`` sets it aside
untouched). A copy is good when the header parses, the file holds exactly ``length``
bytes after it and their CRC-32 matches, so a file cut at any byte is
refused, and so is any change to the data (CRC-32 catches every error
within 32 bits in a row).

Three files: ``path`` (the current save), ``path.new`` (the one being
written) and ``path.old`` (the one before). A save goes:

    0. if path is missing but path.new is good (an earlier save was cut
       between 2 and 3), rename path.new -> path: finish that save first
    1. write the whole copy to path.new and close it
    2. rename path -> path.old (if path exists; replaces the older path.old)
    3. rename path.new -> path

and ``load`` tries path, then path.new, then path.old. A power cut
    during 1 leaves path (and path.old) as they were;
    between 1 and 2 leaves path, and a good path.new;
    between 2 and 3 leaves no path, but a good path.new and path.old;
so there is always a good copy unless none had ever been completed, and
``load`` after a cut save gives the new data or what it gave before the
save (step 0 keeps a copy found in path.new from being overwritten by the
next save). A rename is atomic on the Pico's littlefs (though a cut in one
can hide another file for a while: ``app.keeper`` says why its files have a
folder of their own). Where a rename refuses to replace an existing file
(Windows), step 2 removes path.old first: path is still there then, and
path.new is good. Step 3 never has a file to replace.

Files without a header (a game record) are written with ``write_at`` and
``replace``: ``replace`` writes a whole new file to path.new and renames it
over path, so a cut leaves the old file or the new one, never a mix.
"""

import binascii
import os

NEW = ".new"
OLD = ".old"
# saves are a few hundred bytes; anything much bigger is not ours and
# reading it whole would eat the Pico's RAM
LIMIT = 16384
VERSION = 1  # of the file format: the number after "save" in the header
_MAGIC = b"save%d" % VERSION
HEADER = 40  # the most bytes a header line takes: "save" and three numbers, none long


class Newer(ValueError):
    """A copy written by newer firmware: ``path`` holds format ``version``."""

    def __init__(self, path, version):
        super().__init__("%s: save format %d" % (path, version))
        self.path = path
        self.version = version


def version(blob):
    """The format version a copy's header names, or 0 when it names none."""
    word = blob[:HEADER].split(b" ", 1)[0]
    digits = word[4:]
    if word[:4] != b"save" or not digits or len(digits) > 4 or not digits.isdigit():
        return 0
    return int(digits)


def pack(data):
    """The bytes of a copy of ``data``: header line, then the data."""
    if isinstance(data, str):
        data = data.encode()
    head = b"%s %d %08x\n" % (_MAGIC, len(data), binascii.crc32(data))
    return head + data


def unpack(blob):
    """The data in a copy, or raise ValueError saying what is wrong."""
    end = blob.find(b"\n", 0, HEADER)
    if end < 0:
        raise ValueError("no header line")
    parts = blob[:end].split()
    if len(parts) != 3 or parts[0] != _MAGIC:
        raise ValueError("not a save file")
    try:
        length = int(parts[1])
        crc = int(parts[2], 16)
    except ValueError:
        raise ValueError("bad header")
    data = blob[end + 1:]
    if len(data) != length:
        raise ValueError("%d bytes of data, expected %d" % (len(data), length))
    if binascii.crc32(data) != crc:
        raise ValueError("checksum mismatch")
    return data


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def makedir(path):
    """Make the folder ``path`` (ending in /) if it is not there. On the Pico's
    littlefs, even when it is there, littlefs first finishes a rename a power
    cut interrupted (which until then can hide a file beside it): the one
    write it then makes, and none when nothing was interrupted."""
    try:
        os.mkdir(path[:-1])
    except OSError:
        if not exists(path[:-1]):
            raise


def rename(old, new):
    """Rename ``old`` to ``new``, replacing ``new`` if it exists."""
    try:
        os.rename(old, new)
    except OSError:
        if not exists(old) or not exists(new):
            raise
        os.remove(new)
        os.rename(old, new)


def remove(path):
    """Remove ``path`` if it is there."""
    if exists(path):
        os.remove(path)


def size(path):
    """The bytes in the file ``path``, 0 when it is missing."""
    try:
        return os.stat(path)[6]
    except OSError:
        return 0


def write_at(path, at, data):
    """Write ``data`` (bytes) into the file ``path`` from its byte ``at`` on
    (the end, or where a failed write began: what it left is written over)."""
    try:
        f = open(path, "r+b")
    except OSError:
        f = open(path, "wb")  # (a file not there yet)
    with f:
        f.seek(at)
        f.write(data)


def replace(path, chunks):
    """Make ``path`` hold ``chunks`` (bytes each, an iterable read as it is
    written), atomically: written whole to path.new, then renamed over path."""
    with open(path + NEW, "wb") as f:
        for chunk in chunks:
            f.write(chunk)
    rename(path + NEW, path)


def _read(path):
    """A good copy's data, or raise OSError (missing), Newer or ValueError (bad)."""
    size = os.stat(path)[6]
    if size > LIMIT:
        raise ValueError("larger than %d bytes" % LIMIT)
    with open(path, "rb") as f:
        blob = f.read(size)  # no more: a Pico's heap in play may hold no free block of LIMIT bytes
    if version(blob) > VERSION:
        raise Newer(path, version(blob))
    return unpack(blob)


def _good(path):
    try:
        _read(path)
        return True
    except (OSError, ValueError):  # (Newer too: a newer copy is not ours to finish)
        return False


def save(path, data):
    """Store ``data`` (bytes, or text as UTF-8) at ``path``, atomically."""
    if not exists(path) and _good(path + NEW):
        rename(path + NEW, path)
    with open(path + NEW, "wb") as f:
        f.write(pack(data))
    if exists(path):
        rename(path, path + OLD)
    rename(path + NEW, path)


def load(path):
    """``(data, note)`` from the newest good copy; see the module notes.
    Raises Newer when the newest copy that is not bad is newer firmware's."""
    problems = []
    for name in (path, path + NEW, path + OLD):
        try:
            data = _read(name)
        except OSError:
            continue
        except Newer:
            raise
        except ValueError as err:
            problems.append("%s: %s" % (name, err))
            continue
        if problems:
            return data, "; ".join(problems) + "; using %s" % name
        return data, ""
    if problems:
        return None, "; ".join(problems) + "; no good copy left"
    return None, "no save at %s" % path
