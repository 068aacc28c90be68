"""Never lost: the game saved after every step, and its record kept.

Two files in ``folder``: ``game.sav``, the state after the last applied step
(``hal.storage``: atomic, checksummed, survives a power cut at any byte), and
``game.jsonl``, the game record (``rules.record``) that ``mpremote cp`` reads
off the device and ``python -m host.replay`` plays back. A step's record line
is written before the save; a cut between the two leaves the record one line
ahead, and ``resume`` drops that line again, so record and save always agree.
"""

import json

from hal import storage
from rules.core import RulesError, SaveError, field, save_int
from rules.record import dumps, header

SAVE = "game.sav"
RECORD = "game.jsonl"


class Keeper:
    def __init__(self, folder=""):
        self.save_path = folder + SAVE
        self.record_path = folder + RECORD
        self.steps = 0  # step lines in the record

    def begin(self, game):
        """A new game: a fresh record, and the first save."""
        with open(self.record_path, "w") as f:
            f.write(dumps(header(game)) + "\n")
        self.steps = 0
        self._save(game)

    def played(self, record_line, game):
        """One step applied: ``record_line`` (``rules.record.line``, taken
        before the step) appended, then ``game`` saved."""
        with open(self.record_path, "a") as f:
            f.write(dumps(record_line) + "\n")
        self.steps += 1
        self._save(game)

    def _save(self, game):
        storage.save(self.save_path, json.dumps({"steps": self.steps, "state": game.save()}))

    def resume(self, fresh):
        """The saved game if it is a game like ``fresh`` (same game, same
        board), loaded onto ``fresh``'s board; else None. Returns
        ``(game or None, note)``; the note says what was wrong, if anything."""
        data, note = storage.load(self.save_path)
        if data is None:
            return None, note
        try:
            saved = json.loads(data)
            state = field(saved, "state", dict, "save")
            game = type(fresh).load(fresh.board, state)
            self.steps = save_int(saved, "steps", 0, 1 << 30)
        except (ValueError, RulesError) as err:
            if not isinstance(err, RulesError):
                err = SaveError("save: not valid JSON")
            return None, "the saved game cannot be resumed (%s)" % err
        return game, self._match_record(note)

    def _match_record(self, note):
        """Cut the record back to the saved step (a cut power may have left one line more)."""
        try:
            with open(self.record_path) as f:
                lines = [text for text in f if text.strip()]
        except OSError:
            return (note + "; " if note else "") + "the record is missing"
        if len(lines) > self.steps + 1:
            with open(self.record_path, "w") as f:
                for text in lines[:self.steps + 1]:
                    f.write(text)
        elif len(lines) < self.steps + 1:
            return (note + "; " if note else "") + "the record misses %d steps" % (self.steps + 1 - len(lines))
        return note
