"""Never lost: the game saved after every step, and its record kept.

Two files per board in ``folder``'s ``saves/``: ``game-<board>.sav``, the
state after the last applied step (``hal.storage``: atomic, checksummed,
survives a power cut at any byte), and ``game-<board>.jsonl``, the game
record (``rules.record``) that ``mpremote cp`` reads off the device and
``python -m host.replay`` plays back. Each board keeps its own game, so
flashing another board leaves it be; a game saved where earlier firmware
kept it, in ``folder`` itself (``game-<board>.sav``, or ``game.sav`` of any
board), is copied over by the first board it resumes on.

Why a folder of their own: littlefs renames a file atomically within one
metadata pair, but a directory whose entries outgrow half a block is split
over several, and a rename from one to another is two commits. A power cut
between them leaves the entry after the renamed one in its pair unseen until
littlefs next writes: in the root, beside the code, that can be ``hal/`` or
``main.py``, and the board would not start. So nothing is renamed in the root,
and a keeper's first act is to make its folder (``hal.storage.makedir``),
which has littlefs finish such a rename before a save is read.

A power cut at any moment leaves a save and a record that ``resume`` brings
back to the last whole step:

- a step: its record line is appended, then the game saved. A cut between
  the two leaves the record a line (or part of one) ahead; ``resume`` cuts
  it back.
- a new game: saved first, then its record (the header line) replaces the
  old one. A cut between the two leaves a save of no steps beside the old
  record; ``resume`` writes the header again.
- ``resume`` cuts the record back by writing the lines it keeps to a new
  file and renaming that over the record (``storage.replace``), so a second
  cut leaves the record as it was. It reads the record a line at a time: a
  long game's record would not fit in the Pico's RAM.

A save that cannot be resumed, whatever is wrong in it, is kept aside as
``game-<board>.sav.bad`` with its record (the latest only), and a new game
begins: the board always starts.

Saves are versioned: the file's header (``hal.storage``) and the save's own
``"version"`` (VERSION; a save without one is version 1). A save of a later
version, or one holding fields this firmware does not know, was made by newer
firmware: it is kept aside untouched as ``game-<board>.sav.newer`` (then
``.newer2``, ...: never overwritten) with its record, and a new game begins.

A full (or failing) flash: a write that fails (OSError) leaves the game going
on in RAM. The steps' record lines wait in RAM (BEHIND at most; past that the
record stops short of the game, and says so on resume) and every step tries
the flash again; ``failing`` says why meanwhile. The first write that works
brings the flash back in step: the lines waiting are written from where the
record's last whole line ends, over whatever part of them a failed write had
left, then the save. A torn line that a power cut leaves is cut away by
``resume``, with the lines after it, and the note says so.

``marks`` holds the byte where every STRIDE-th line of the record begins,
as far as it is known, so that a reader (``app.link``) finds line N by
reading at most STRIDE lines.
"""

import json
from array import array

from hal import storage
from rules.core import RulesError, SaveError, field, save_int
from rules.record import dumps, header

BAD = ".bad"  # the ending of a save (and its record) kept aside
NEWER = ".newer"  # the ending of a save of newer firmware kept aside (then .newer2, ...)
SAVES = "saves/"  # the boards' saves and records, in ``folder``
VERSION = 1  # of the save's JSON: {"version": 1, "steps": ..., "state": {...}}
FIELDS = ("version", "steps", "state")
BEHIND = 200  # record lines kept in RAM while the flash fails, at most
STRIDE = 32  # lines of the record between two marks


def _line(obj):
    return (dumps(obj) + "\n").encode()


def _why(err):
    return str(err) if isinstance(err, RulesError) else "%s: %s" % (type(err).__name__, err)


class Newer(SaveError):
    """A save this firmware is too old to read."""


class Keeper:
    def __init__(self, folder="", board="", on_step=None, log=print):
        """A board's keeper (``board``), or without one the keeper of the one
        game earlier firmware kept in ``folder`` itself (as the PC simulator does)."""
        self.folder = folder
        self.name = "game-" + board if board else "game"
        # the places earlier firmware kept this board's game in
        self.earlier = (folder + self.name, folder + "game") if board else ()
        if board:
            folder += SAVES
            storage.makedir(folder)
        self.save_path = folder + self.name + ".sav"
        self.record_path = folder + self.name + ".jsonl"
        self.on_step = on_step  # called once a step is saved
        self.log = log
        self.steps = 0  # steps of the game
        self.failing = ""  # why the flash is behind the game, "" when it is in step
        self.marks = array("I")  # the byte where lines 0, STRIDE, 2 STRIDE, ... begin
        self._size = -1  # bytes of whole lines in the record (-1: as long as the file is)
        self._lines = -1  # and how many (-1: not known, no marks kept)
        self._behind = []  # record lines not yet written
        self._start = None  # a new game's first save, while it is not on the flash
        self._short = False  # the record stops short of the game: no line is added to it

    def begin(self, game, lines=()):
        """A new game: its first save, then a fresh record. Or a game
        whose record so far is ``lines`` (text, as ``rules.record`` writes
        them), ``game`` being the state they lead to."""
        self.steps = len(lines)
        self._behind = []
        self._short = False
        self._start = (self._saved(game), lines)
        self._sync(game)

    def played(self, record_line, game, last=True):
        """One step applied: ``record_line`` (``rules.record.line``, taken
        before the step) appended, then ``game`` saved; while the flash fails,
        kept in RAM (``failing`` says why). Not the ``last`` of steps played
        at once: its line waits for theirs, and ``game``, which holds them
        too, is saved with the last (saved now, it would be a step ahead of
        the record's count)."""
        self.steps += 1
        if not self._short:
            if len(self._behind) < BEHIND:
                self._behind.append(_line(record_line))
            else:
                self._short = True  # a gap would spoil the record: it stops before it
                self.log("the record stops at step %d: no more lines wait in RAM for the flash; the save goes on"
                         % (self.steps - 1))
        if not last:
            return
        self._sync(game)
        if self.on_step:
            self.on_step()

    def _saved(self, game):
        return json.dumps({"version": VERSION, "steps": self.steps, "state": game.save()})

    def _sync(self, game):
        """Bring the flash in step with the game, or note why it cannot."""
        try:
            saved = False
            if self._start is not None:
                # a new game: saved first, then its record (the module notes say why)
                storage.save(self.save_path, self._start[0])
                lines = [_line(header(game))] + [(text + "\n").encode() for text in self._start[1]]
                storage.replace(self.record_path, lines)
                self._start = None
                self._size = self._lines = 0
                self.marks = array("I")
                self._count(lines)
                saved = True
            if self._behind:
                self._append()
                saved = False  # (steps played since the start was saved)
            if not saved:
                storage.save(self.save_path, self._saved(game))
        except OSError as err:
            if not self.failing:
                self.failing = "%s: %s" % (type(err).__name__, err)
                self.log("the flash refused a write (%s): the game goes on in RAM, and is saved again once a write "
                         "works" % self.failing)
            return
        if self.failing:
            self.failing = ""
            self.log("the flash took the game again: saved at step %d" % self.steps)

    def _append(self):
        """Write the lines waiting, from the end of the record's last whole line."""
        if self._size < 0:
            self._size = storage.size(self.record_path)
        storage.write_at(self.record_path, self._size, b"".join(self._behind))
        self._count(self._behind)
        self._behind = []

    def _count(self, lines):
        """Lines now whole on the flash, after the others: their bytes, and their marks where they are kept."""
        for text in lines:
            if self._lines >= 0:
                if self._lines % STRIDE == 0:
                    self.marks.append(self._size)
                self._lines += 1
            self._size += len(text)

    def mark(self, n):
        """(line, byte) where the record's line ``n`` or one at most STRIDE lines before it begins, as far as
        the marks go; (0, 0) when none are kept."""
        k = min(n // STRIDE, len(self.marks) - 1)
        return (k * STRIDE, self.marks[k]) if k >= 0 else (0, 0)

    def resume(self, fresh, refuse=""):
        """The saved game if it is a game like ``fresh`` (same game, same
        board), loaded onto ``fresh``'s board; else None. Returns
        ``(game or None, note)``; the note says what was wrong, if anything.
        A save that cannot be resumed, or any save when ``refuse`` says why
        not, is kept aside. Never raises but for a failing flash (OSError)."""
        try:
            data, note = storage.load(self.save_path)
        except storage.Newer as err:
            with open(err.path, "rb") as f:
                blob = f.read(storage.LIMIT)
            return None, self._set_aside(blob, "save file format %d" % err.version, NEWER)
        if data is None:
            taken = self._take_over(fresh)
            if taken is not None:
                data, note = taken, ""
        if data is None:
            return None, note
        if refuse:
            return None, self._set_aside(storage.pack(data), refuse)
        try:
            game, steps = self._load(data, fresh)
        except Newer as err:
            return None, self._set_aside(storage.pack(data), str(err), NEWER)
        except Exception as err:  # whatever a save holds, the board starts
            return None, self._set_aside(storage.pack(data), _why(err))
        self.steps = steps
        return game, self._match_record(game, note)

    @staticmethod
    def _load(data, fresh):
        """(game, steps) of a save's ``data``; raises what the rules raise, Newer for newer firmware's."""
        try:
            saved = json.loads(data)
        except ValueError:
            raise SaveError("save: not valid JSON")
        if not isinstance(saved, dict):
            raise SaveError("save: not a JSON object")
        version = saved.get("version", 1)
        if type(version) is int and version > VERSION:
            raise Newer("save version %d" % version)
        if version != 1:
            raise SaveError("save: field 'version' is %r" % (version,))
        state = field(saved, "state", dict, "save")
        known = fresh.save()  # (every state of a game has the same fields)
        unknown = [name for name in saved if name not in FIELDS]
        if state.get("game") == known["game"] and state.get("board") == known["board"]:  # (else: another game's)
            unknown += [name for name in state if name not in known]
        if unknown:
            raise Newer("fields %s" % ", ".join(repr(name) for name in sorted(unknown)[:4]))
        return type(fresh).load(fresh.board, state), save_int(saved, "steps", 0, 1 << 30)

    def _take_over(self, fresh):
        """The data of the save earlier firmware kept in ``folder`` itself,
        now copied into this board's place, if it is a game of this board;
        else None (and it stays). Copied, not renamed: see the module notes."""
        for old in self.earlier:
            try:
                data = storage.load(old + ".sav")[0]
            except storage.Newer:
                continue  # not ours to take
            if data is None:
                continue
            try:
                self._load(data, fresh)
            except Exception:  # another board's game: it waits for that board
                continue
            # the record first: a cut before the save is copied takes over again
            if storage.exists(old + ".jsonl"):
                storage.replace(self.record_path, self._read(old + ".jsonl"))
            storage.save(self.save_path, data)
            for end in (".sav" + storage.NEW, ".sav" + storage.OLD, ".sav", ".jsonl"):
                storage.remove(old + end)
            return data
        return None

    def _set_aside(self, blob, why, ending=BAD):
        """Keep the save file ``blob`` and the record aside; the note that says so."""
        kept = self.save_path + ending
        if ending == NEWER:  # never overwritten
            n = 1
            while storage.exists(kept):
                n += 1
                kept = self.save_path + ending + str(n)
        storage.replace(kept, (blob,))
        if storage.exists(self.record_path):
            storage.rename(self.record_path, self.record_path + kept[len(self.save_path):])
        # the save last: a cut before it is gone sets the same save aside again
        for end in (storage.NEW, storage.OLD, ""):
            storage.remove(self.save_path + end)
        name = kept[len(self.save_path) - len(self.name) - 4:]
        if ending == NEWER:
            return ("the saved game was made by newer firmware (%s; this firmware reads save version %d): it is kept "
                    "untouched as %s, and a new game started. To play it on, flash the firmware that saved it"
                    % (why, VERSION, name))
        return "the saved game could not be resumed (%s); a new game started; the old save is kept as %s" % (why, name)

    def _read(self, path, keep=1 << 30):
        """The first ``keep`` lines of the record at ``path`` (blank ones left out),
        one at a time; the file is read to its end, so it is closed after the last."""
        with open(path, "rb") as f:
            for text in f:
                if keep and text.strip():
                    keep -= 1
                    yield text

    def _match_record(self, game, note):
        """Bring the record to the saved step: cut away a torn line and
        what follows it, or a line more than the save has (a cut power may
        have left them), or start it again when it is another game's."""
        head = header(game)
        whole = size = 0
        torn = ""
        marks = array("I")
        try:
            n = 0  # (read to the end, also past a torn line: the file is closed at its end)
            for text in self._read(self.record_path):
                torn = torn or self._torn(text, n, head)
                n += 1
                if not torn and whole <= self.steps:
                    if whole % STRIDE == 0:
                        marks.append(size)
                    whole += 1
                    size += len(text)
        except OSError:
            pass  # no record
        notes = [note] if note else []
        if not storage.exists(self.record_path) and self.steps:
            notes.append("the record is missing")
        elif torn and (self.steps or whole):  # (a new game's save beside the last game's record: no repair to tell)
            notes.append("the record was cut back to %d lines: %s" % (whole, torn))
        if whole == 0:
            first = _line(head)
            storage.replace(self.record_path, (first,))
            whole, size, marks = 1, len(first), array("I", (0,))
        elif storage.size(self.record_path) != size:
            storage.replace(self.record_path, self._read(self.record_path, whole))
        if 1 < whole < self.steps + 1:
            notes.append("the record misses %d steps" % (self.steps + 1 - whole))
        self._short = whole < self.steps + 1
        self._size, self._lines, self.marks = size, whole, marks
        return "; ".join(notes)

    @staticmethod
    def _torn(text, n, head):
        """What is wrong with record line ``n`` (from 0), "" if nothing."""
        why = ""
        if text[-1:] != b"\n":
            why = "is cut short"
        else:
            try:
                obj = json.loads(text)
                if n == 0 and obj != head:
                    why = "is the header of another game"
                elif not isinstance(obj, dict):
                    why = "is not a JSON object"
            except ValueError:
                why = "is not JSON"
        return "its line %d %s" % (n + 1, why) if why else ""
