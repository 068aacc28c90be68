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
"""

import json

from hal import storage
from rules.core import RulesError, SaveError, field, save_int
from rules.record import dumps, header

BAD = ".bad"  # the ending of a save (and its record) kept aside
SAVES = "saves/"  # the boards' saves and records, in ``folder``


def _line(obj):
    return (dumps(obj) + "\n").encode()


def _why(err):
    return str(err) if isinstance(err, RulesError) else "%s: %s" % (type(err).__name__, err)


class Keeper:
    def __init__(self, folder="", board="", on_step=None):
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
        self.between = None  # called between two flash writes of a step (an animation's frame may be due)
        self.steps = 0  # step lines in the record

    def begin(self, game):
        """A new game: its first save, then a fresh record."""
        self.steps = 0
        self._save(game)
        storage.replace(self.record_path, (_line(header(game)),))

    def played(self, record_line, game):
        """One step applied: ``record_line`` (``rules.record.line``, taken
        before the step) appended, then ``game`` saved."""
        storage.append(self.record_path, _line(record_line))
        self.steps += 1
        if self.between:
            self.between()
        self._save(game)
        if self.on_step:
            self.on_step()

    def _save(self, game):
        storage.save(self.save_path, json.dumps({"steps": self.steps, "state": game.save()}), self.between)

    def resume(self, fresh, refuse=""):
        """The saved game if it is a game like ``fresh`` (same game, same
        board), loaded onto ``fresh``'s board; else None. Returns
        ``(game or None, note)``; the note says what was wrong, if anything.
        A save that cannot be resumed, or any save when ``refuse`` says why
        not, is kept aside. Never raises but for a failing flash (OSError)."""
        data, note = storage.load(self.save_path)
        if data is None:
            taken = self._take_over(fresh)
            if taken is not None:
                data, note = taken, ""
        if data is None:
            return None, note
        if refuse:
            return None, self._set_aside(data, refuse)
        try:
            game, steps = self._load(data, fresh)
        except Exception as err:  # whatever a save holds, the board starts
            return None, self._set_aside(data, _why(err))
        self.steps = steps
        return game, self._match_record(game, note)

    @staticmethod
    def _load(data, fresh):
        """(game, steps) of a save's ``data``; raises what the rules raise."""
        try:
            saved = json.loads(data)
        except ValueError:
            raise SaveError("save: not valid JSON")
        state = field(saved, "state", dict, "save")
        return type(fresh).load(fresh.board, state), save_int(saved, "steps", 0, 1 << 30)

    def _take_over(self, fresh):
        """The data of the save earlier firmware kept in ``folder`` itself,
        now copied into this board's place, if it is a game of this board;
        else None (and it stays). Copied, not renamed: see the module notes."""
        for old in self.earlier:
            data = storage.load(old + ".sav")[0]
            if data is None:
                continue
            try:
                self._load(data, fresh)
            except Exception:  # another board's game: it waits for that board
                continue
            # the record first: a cut before the save is copied takes over again
            if storage.exists(old + ".jsonl"):
                storage.replace(self.record_path, self._lines(old + ".jsonl"))
            storage.save(self.save_path, data)
            for end in (".sav" + storage.NEW, ".sav" + storage.OLD, ".sav", ".jsonl"):
                storage.remove(old + end)
            return data
        return None

    def _set_aside(self, data, why):
        """Keep the save ``data`` and the record aside; the note that says so."""
        storage.replace(self.save_path + BAD, (storage.pack(data),))
        if storage.exists(self.record_path):
            storage.rename(self.record_path, self.record_path + BAD)
        # the save last: a cut before it is gone sets the same save aside again
        for end in (storage.NEW, storage.OLD, ""):
            storage.remove(self.save_path + end)
        return "the saved game could not be resumed (%s); a new game started; the old save is kept as %s" % (
            why, self.name + ".sav" + BAD)

    def _lines(self, path, keep=1 << 30):
        """The first ``keep`` lines of the record at ``path`` (blank ones left out),
        one at a time; the file is read to its end, so it is closed after the last."""
        with open(path, "rb") as f:
            for text in f:
                if keep and text.strip():
                    keep -= 1
                    yield text

    def _match_record(self, game, note):
        """Bring the record to the saved step (a cut power may have left a
        line more, or the record of the game before a new one)."""
        count = 0
        first = b""
        try:
            for text in self._lines(self.record_path):
                first = first or text
                count += 1
        except OSError:
            pass  # no record
        if self.steps == 0:
            try:
                ours = count == 1 and json.loads(first) == header(game)
            except ValueError:
                ours = False
            if not ours:
                storage.replace(self.record_path, (_line(header(game)),))
        elif not count:
            return (note + "; " if note else "") + "the record is missing"
        elif count > self.steps + 1:
            storage.replace(self.record_path, self._lines(self.record_path, self.steps + 1))
        elif count < self.steps + 1:
            return (note + "; " if note else "") + "the record misses %d steps" % (self.steps + 1 - count)
        return note
