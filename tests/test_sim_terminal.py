"""The terminal simulator (python -m host.sim.terminal) played as a person plays it:
command lines in, the board and its status out. The controller, the hal and
the rules are the real ones; only the die's random source is scripted."""

import io
import re
from pathlib import Path

from host.boardfile import read_board
from host.rig import Bytes
from host.sim.screen import screen_colours
from host.sim.terminal import Table, main
from rules.core import PHASE_NAMES, POPOFF
from rules.games import new_game
from rules.playout import Rng, random_step
from rules.record import replay

ROOT = Path(__file__).resolve().parents[1]
ESCAPE = re.compile(r"\x1b\[([0-9;]*)m")


class Terminal(io.StringIO):
    """Output that is a terminal, as sys.stdout at a prompt is."""

    def isatty(self):
        return True


def play(argv, lines, dice=(0,), out=None):
    """Run the simulator on ``lines`` typed; what it printed."""
    out = out or io.StringIO()
    assert main(argv, input=io.StringIO("".join(line + "\n" for line in lines)), output=out,
                urandom=Bytes(dice)) == 0
    return out.getvalue()


def table(name, players=2, dice=(0,), seats=None):
    game = new_game(name, read_board(name), players)
    return Table(game, Bytes(dice), seats or [None] * players)


def backgrounds(line):
    """The background colour under each visible character of ``line`` (None where there is none)."""
    out = []
    colour = None
    for n, part in enumerate(ESCAPE.split(line)):
        if n % 2:
            codes = [int(c) for c in part.split(";") if c]
            colour = tuple(codes[2:5]) if codes[:2] == [48, 2] else None
        else:
            out += [colour] * len(part)
    return out


def plain(text):
    return ESCAPE.sub("", text)


def cell_colour(frame, column, row):
    """The colour drawn on the space at ruler ``column`` (a letter) and ``row`` (a number)."""
    lines = frame.splitlines()
    ruler = next(line for line in lines if plain(line).split()[:3] == ["a", "b", "c"])
    x = plain(ruler).index(" %s" % column) + 1
    line = next(line for line in lines if plain(line)[:3].strip() == str(row))
    return backgrounds(line)[x]


# -- Detour: one whole turn ----------------------------------------------------------


def test_a_detour_turn_roll_put_the_pieces_on_start_and_move_onto_a_lit_space():
    # bytes 2 and 4 roll 3 and 5
    text = play(["--game", "detour", "--plain"],
                ["r", "put d1", "put a4", "m d1 g1", "q"], dice=(2, 4))
    frames = text.split("\n> ")
    assert "player 1 (red): roll the dice with r." in frames[0]
    rolled = frames[1]
    assert "player 1 rolls 3,5" in rolled and "dice 3,5" in rolled
    assert "legal: a3 d1->g1, a5 d1->f2, b3 a4->a7, b5 a4->b6" in rolled
    assert "the board disagrees: put a piece on d1, a4" in rolled  # the pieces go onto the STARTs first
    assert "disagrees" not in frames[3]
    moved = frames[4]
    assert "piece 1a moves 3: d1 -> g1" in moved
    assert "legal: b5 a4->b6" in moved
    row_1 = next(line for line in moved.splitlines() if line.startswith(" 1 "))
    assert row_1.split() == ["1", "*", ".", ".", "S", ".", ".", "1^"]  # the piece stands on g1
    assert "\x1b[" not in text  # --plain: letters only


def test_the_readmes_first_turn_typed_into_make_play_moves_the_piece():
    readme = (ROOT / "README.md").read_text()
    block = readme[readme.index("```text\n", readme.index("`make play` (or")):]
    commands = [line[2:].split("#")[0].strip() for line in block.split("```")[1].splitlines()[1:]]
    assert commands == ["r", "fix", "m d1 g1"]
    # Enter for the game, players, options, seats and board; bytes 2 and 4 roll 3 and 5
    text = play([], [""] * 5 + commands + ["q"], dice=(2, 4))
    assert "piece 1a moves 3: d1 -> g1" in text.split("\n> ")[-2]


def test_a_piece_the_game_has_but_the_board_not_yet_is_named_with_the_command_that_puts_it():
    t = table("detour", dice=(2, 4))
    assert t.command("r") == (True, "")
    assert t.command("m d1 g1") == (False, "the game has a piece on d1, the board not yet: put d1 puts it there, "
                                           "fix puts every piece where the game has them")


def test_a_pop_off_names_who_popped_which_face():
    game = new_game("detour", read_board("detour"), 2)
    rng = Rng(3)
    while game.phase != POPOFF:
        game.play(random_step(game, rng))
    t = Table(game, Bytes((4, 1)), [None, None])
    for command in ("r1", "r2"):
        assert t.command(command) == (True, "")
    assert t.guide().startswith("Pop-off, player 1 popped 5, player 2 popped 2: player 1 (red) presses r1")


def test_a_stack_on_a_start_is_explained_under_the_board():
    t = Table(new_game("detour", read_board("detour"), 2, {"pieces": 4}), Bytes((2, 4)), [None, None])
    assert "1^+" not in t.frame()
    t.command("r")
    frame = plain(t.frame())
    assert " 1^+" in frame and "1^+: more than one piece stands there" in frame


def test_the_board_is_drawn_in_the_colours_its_pixels_send():
    t = table("detour", dice=(2, 4))
    for command in ("r", "put d1", "put a4", "lift d1"):
        assert t.command(command) == (True, "")
    frame = t.frame()
    shown = screen_colours(t.rig.ports.pixels)
    board = t.game.board
    for column, row in (("g", 1), ("f", 2), ("a", 4), ("d", 1), ("m", 13)):
        led = board.leds[board.space("%s%d" % (column, row))]
        assert cell_colour(frame, column, row) == shown[led], (column, row)
    # the lifted piece's destinations are lit alike (white), an empty space differs from them
    assert cell_colour(frame, "g", 1) == cell_colour(frame, "f", 2) != cell_colour(frame, "m", 13)
    assert "the piece from d1 is up: put it on f2 or g1" in frame


def test_colours_go_to_a_terminal_only_and_not_with_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert "\x1b[48;2;" in play(["--game", "detour"], ["r", "q"], out=Terminal())
    piped = play(["--game", "detour"], ["r", "q"])
    assert "\x1b[" not in piped and "player 1 rolls 1,1" in piped
    monkeypatch.setenv("NO_COLOR", "1")
    text = play(["--game", "detour"], ["r", "q"], out=Terminal())
    assert "\x1b[48;2;" not in text and "player 1 rolls 1,1" in text
    forced = play(["--game", "detour", "--colour"], ["r", "q"])  # asked for, into a pipe too
    assert "\x1b[48;2;" in forced and "player 1 rolls 1,1" in forced


def test_a_piece_already_lifted_can_still_be_moved_with_m():
    t = table("detour", dice=(2, 4))
    for command in ("r", "fix", "lift d1", "m d1 g1"):
        assert t.command(command) == (True, ""), command
    assert "piece 1a moves 3: d1 -> g1" in t.frame()


def test_bad_input_says_why_and_changes_nothing():
    t = table("detour", dice=(2, 4))
    t.command("r")
    before = (t.frame(), t.rig.now)
    for command, message in (("m z9 a1", "there is no space 'z9' on this board"),
                             ("lift g1", "there is no piece on g1"),
                             ("w 5+", "there is no wheel 5 (the wheels are 1 to 4)"),
                             ("jump", "'jump': no such command (help lists them)"),
                             ("pick a3", "button 1 does not offer a3 now")):
        assert t.command(command) == (False, message)
    assert (t.frame(), t.rig.now) == before


def test_a_move_from_an_empty_space_is_refused_even_where_a_piece_was_lifted_before():
    t = table("detour", dice=(2, 4))
    for command in ("r", "fix", "m d1 e1"):  # e1 is no legal move: the piece stands there, blinking red
        assert t.command(command) == (True, ""), command
    before = (t.frame(), t.rig.now)
    assert t.command("m d1 g1") == (False, "there is no piece on d1")
    assert (t.frame(), t.rig.now) == before
    assert t.command("m e1 g1") == (True, "")  # the piece taken from where it stands
    assert "piece 1a moves 3: d1 -> g1" in t.frame()


def test_help_lists_every_command():
    text = play(["--game", "detour", "--plain"], ["help", "q"]).split("\n> help\n")[1]
    for command in ("r1", "h2", "lift S", "put S", "m A B", "w N+", "wait MS", "new", "pick STEP", "b NAME", "fix",
                    "legal", "speed NAME", "next"):
        assert re.search(r"^  .*\b%s\b" % re.escape(command), text, re.MULTILINE), command


def test_new_holds_button_2_twice_and_starts_again():
    text = play(["--game", "detour", "--plain"], ["r", "new", "q"])
    assert "new game" in text.split("\n> new")[1]
    assert text.split("\n> ")[-2].count("roll the dice with r") == 1


# -- the other games: a smoke turn each -------------------------------------------------


def first_move(status):
    """The squares of the first legal move the status line lists."""
    return re.search(r"legal: \S+ (\S+)->([^,\s]+)", status).groups()


def test_a_sniggle_turn_after_the_throws_for_the_first_turn():
    # player 1 throws 6,6, player 2 1,1: player 1 starts and rolls 3,2
    t = table("sniggle", dice=(5, 5, 0, 0, 2, 1))
    for _ in range(3):
        assert t.command("r") == (True, "")
    frame = t.frame()
    assert "player 1 goes first" in frame and "player 1 rolls 3,2" in frame
    start, end = first_move(frame)
    assert t.command("m %s %s" % (start, end)) == (True, "")
    assert "R1 moves" in t.frame() and "disagrees" not in t.frame()


def test_a_mehen_turn_takes_a_marble_off_the_tail_stack():
    t = table("mehen", dice=(5,))  # the sticks of byte 5: a throw of 2
    t.command("r")
    frame = t.frame()
    assert "player 1 throws" in frame and "lift a lit piece (1)" in frame
    start, end = first_move(frame)
    assert t.command("m %s %s" % (start, end)) == (True, "")
    frame = t.frame()
    assert "marble 1a moves" in frame and "player 2 (blue): throw the sticks with r." in frame
    assert "disagrees" not in frame


def test_a_snuka_shot_is_told_with_the_buttons():
    t = table("snuka")
    assert t.command("put yellow") == (False, "yellow is not a pocket: Tiddlee Snuka has no pieces to put down")
    t.command("put TL")  # a counter drops into the top-left pocket
    assert "button 1 shows R" in t.frame()
    t.command("h1")
    frame = t.frame()
    assert "player 1 pots the red: 1 point" in frame and "  player 1:    1  <- to shoot" in frame
    t.command("pick K")
    assert "player 1 pots the black: 7 points" in t.frame()


def test_a_snuka_shot_is_told_with_the_boards_own_buttons():
    t = table("snuka")
    assert "b red, b foul_off then b green" in t.frame()
    assert t.command("b red") == (True, "")
    assert "player 1 pots the red: 1 point" in t.frame()
    t.command("b foul_onto")
    assert "a foul is named: press the button of the counter that fouled" in t.frame()
    t.command("b pink")
    frame = t.frame()
    assert "foul: player 1 flips the pink onto another counter" in frame and "player 1 has -5" in frame
    assert t.command("b purple")[1].startswith("this board has the buttons red, yellow")
    t.command("b pink")  # back on its spot; player 2 pots a red and knocks the yellow in with it
    t.command("b red+yellow")
    assert "player 2 pots the red: 1 point" in t.frame() and "legal: @Y" in t.frame()


def test_a_computer_seat_plays_its_turn_on_the_board_and_the_record_replays(tmp_path):
    record = tmp_path / "game.jsonl"
    text = play(["--game", "sniggle", "--seats", "human,greedy", "--plain", "--record", str(record)], ["r", "q"],
                dice=(0, 0, 5, 5, 2, 1))
    after = text.split("\n> r")[1]
    assert "player 2 goes first" in after and "player 2 rolls 3,2" in after
    assert "player 1's turn" in after and "player 1 (red): roll the dice with r." in after
    assert "disagrees" not in after
    assert text.endswith("> q\nrecord written to %s\n" % record)
    lines = record.read_text().splitlines()
    assert len(lines) == 6  # the header, two throws for the first turn, a roll, a move for each die
    game = replay(lines, read_board)
    assert game.turn == 0 and PHASE_NAMES[game.phase] == "roll"


def test_the_chooser_asks_game_players_options_and_seats():
    text = play([], ["3", "4", "hunt=maybe", "hunt=true", "", "", "", "q"])
    assert "Which game?" in text and "  3  Mehen" in text
    assert "players (2 to 6) [2]:" in text and "  lions=3" in text and "boards/mehen.md" in text
    assert "option 'hunt' must be bool" in text
    assert "2  no sensors (button 1 picks the moves)\nboard [1]: \n" in text  # sensors, the default
    assert "Mehen, 4 players (person, person, person, person)" in text
    assert "lions: L1 tail, L2 tail, L3 tail" in text


def test_a_board_without_sensors_picks_the_moves_with_button_1():
    # bytes 0 and 2 roll 1 and 3
    text = play(["--game", "detour", "--plain", "--buttons"], ["r", "m d1 g1", "r1", "h1", "q"], dice=(0, 2))
    frames = text.split("\n> ")
    assert "player 1 puts piece a on START d1" in frames[1]  # nobody puts it there: nothing is read
    assert "button 1 shows a1; r1 shows the next, h1 takes it" in frames[1]
    assert frames[2].startswith("m d1 g1\nthis board has no piece sensors: r1 shows the next move, h1 makes it")
    assert "button 1 shows a3" in frames[3]
    assert "piece 1a moves 3: d1 -> g1" in frames[4] and "legal: b1 a4->a5" in frames[4]


def test_the_chooser_offers_a_board_without_sensors():
    text = play([], ["4", "2", "", "", "2", "put TL", "h1", "q"])
    assert "board [1]: 2\nTiddlee Snuka, 2 players" in text
    assert "put TL\nthis board has no piece sensors" in text  # no pocket beams either
    assert "player 1 pots the red: 1 point" in text  # button 1's first choice, held


# -- computer seats: a frame after each step, at the speed chosen ------------------------


def test_step_by_step_a_computer_seat_acts_only_when_asked(tmp_path):
    record = tmp_path / "game.jsonl"
    text = play(["--game", "detour", "--seats", "search,human", "--speed", "step", "--plain", "--record", str(record)],
                ["wait 2000", "next", "next", "q"], dice=(2, 4))
    waited, asked, again = text.split("\n> ")[1:4]
    assert "rolls" not in waited and "player 1 (red, computer): roll the dice with r." in waited
    assert "player 1 rolls 3,5" in asked and "moves" not in asked
    assert re.search(r"piece 1[ab] moves [35]: ", again) and "player 1 rolls" not in again  # either die
    assert len(record.read_text().splitlines()) == 3  # the header and the two steps asked for


def test_a_person_sets_the_speed_and_a_wrong_one_is_named():
    t = table("sniggle", seats=[None, None])
    assert t.command("speed warp") == (False, "a speed is one of slow, normal, fast, instant, step")
    assert t.command("next") == (False, "the computer players go by themselves at speed fast "
                                 "(speed step: one at a time)")
    assert t.command("speed slow") == (False, "computer players: slow") and t.speed == "slow"


def test_the_pause_after_each_step_is_the_speeds_and_none_into_a_pipe(monkeypatch):
    slept = []
    monkeypatch.setattr("host.sim.terminal.time.sleep", slept.append)
    play(["--auto", "--game", "snuka", "--speed", "slow", "--plain"], [])
    assert slept == []
    text = play(["--auto", "--game", "snuka", "--speed", "slow", "--plain"], [], out=Terminal())
    assert len(slept) > 20 and set(slept) == {1.5}
    assert text.count("\x1b[2J") == 0  # --plain: no colours, so the screen is not cleared either


def test_watching_plays_the_controller_on_the_board_and_a_seed_repeats_its_game(tmp_path):
    record = tmp_path / "game.jsonl"
    text = play(["--auto", "--game", "mehen", "--seed", "3", "--plain", "--record", str(record)], [])
    assert "the board disagrees" not in text and "phase decide, draw " in text  # the controller's frames
    assert "Watch mode: computer players play the controller on a simulated board" in text
    assert "with r" not in text and "help lists the commands" not in text  # a viewer types nothing
    assert text == play(["--auto", "--game", "mehen", "--seed", "3", "--plain", "--record", str(record)], [])
    game = replay(record.read_text().splitlines(), read_board)
    assert game.over() and "player %d wins after " % (game.winner + 1) in text
    steps = play(["--auto", "--game", "mehen", "--seed", "3", "--speed", "step", "--plain"], ["next", "n", "q"])
    assert steps.count("player 1 throws") == 1 and steps.count("marble 1") == 1
