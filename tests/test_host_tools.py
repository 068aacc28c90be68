"""The scripted terminal game (python -m host.sim.terminal --auto) and the replay command, run as a user runs
them; the interactive simulator is tested in test_sim_terminal.py."""

import json
import subprocess
import sys

ROOT = __file__.rsplit("/tests/", 1)[0]


def run(*args):
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_sim_plays_a_whole_game_and_the_seed_repeats_it(tmp_path):
    record = tmp_path / "game.jsonl"
    first = run("host.sim.terminal", "--auto", "--seed", "4", "--players", "3", "--record", str(record))
    assert first.returncode == 0, first.stderr
    assert "player 1 rolls" in first.stdout and " wins after " in first.stdout
    assert " S " in first.stdout and " C " in first.stdout  # the board is drawn
    again = run("host.sim.terminal", "--auto", "--seed", "4", "--players", "3", "--quiet")
    assert again.stdout.splitlines()[-1] == first.stdout.splitlines()[-2]
    other = run("host.sim.terminal", "--auto", "--seed", "5", "--players", "3", "--quiet")
    assert other.stdout != again.stdout
    replayed = run("host.replay", str(record), "--json")
    assert replayed.returncode == 0, replayed.stderr
    final = json.loads(replayed.stdout)
    assert final["phase_name"] == "over" and final["players"] == 3
    assert "player %d wins" % (final["winner"] + 1) in first.stdout


def test_sim_refuses_bad_settings_with_a_message():
    for mode in ("--auto", "--plain"):  # the scripted run and the interactive game alike
        result = run("host.sim.terminal", mode, "--game", "detour", "--players", "7")
        assert result.returncode == 2 and "2 to 4 players" in result.stderr


def test_a_seed_still_means_the_scripted_run():
    scripted = run("host.sim.terminal", "--seed", "2")
    assert " wins after " in scripted.stdout and scripted.stdout == run("host.sim.terminal", "--auto", "--seed", "2").stdout


def test_replay_tells_each_step_by_the_boards_space_names_then_draws_the_board(tmp_path):
    record = tmp_path / "game.jsonl"
    head = {"record": 1, "game": "detour", "board": "detour", "players": 2, "options": {}}
    record.write_text("\n".join(json.dumps(line) for line in (head, {"roll": "3,5"}, {"play": "a3"})) + "\n")
    result = run("host.replay", str(record))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Detour, 2 players, board detour; first_player=1, half_turns=false, pieces=2")
    assert lines[1].split() == ["2", "3,5", "player", "1", "puts", "piece", "a", "on", "START", "d1;", "player", "1",
                                "puts", "piece", "b", "on", "START", "a4;", "player", "1", "rolls", "3,5"]
    assert lines[2].split() == ["3", "a3", "piece", "1a", "moves", "3:", "d1", "->", "g1"]
    row_1 = next(line for line in lines if line.startswith(" 1 "))
    assert row_1.split() == ["1", "*", ".", ".", "S", ".", ".", "1^"]  # the board as it ends: the piece on g1
    assert lines[-1] == "next: player 1, decide"
    record.write_text(record.read_text() + json.dumps({"play": "a3"}) + "\n")  # that die is used
    result = run("host.replay", str(record))
    assert result.returncode == 1 and result.stderr.startswith("%s: line 4: " % record)
    assert result.stdout.splitlines()[2].split()[:2] == ["3", "a3"]  # the steps before it are told


def test_replay_names_the_first_illegal_line(tmp_path):
    record = tmp_path / "game.jsonl"
    run("host.sim.terminal", "--auto", "--seed", "2", "--quiet", "--record", str(record))
    lines = record.read_text().splitlines()
    lines[2] = json.dumps({"play": "d6"})  # piece d does not exist in a 2-piece game
    record.write_text("\n".join(lines) + "\n")
    result = run("host.replay", str(record))
    assert result.returncode == 1
    assert "line 3" in result.stderr and "'d6'" in result.stderr


def test_replay_lists_the_legal_steps_after_the_last_line(tmp_path):
    record = tmp_path / "game.jsonl"
    run("host.sim.terminal", "--auto", "--seed", "2", "--quiet", "--record", str(record))
    lines = record.read_text().splitlines()[:3]  # header, first roll, first move
    record.write_text("\n".join(lines) + "\n")
    result = run("host.replay", str(record), "--legal")
    assert result.returncode == 0, result.stderr
    legal = json.loads(result.stdout)
    assert len(legal) == 1 and legal[0][0] in "ab"
    record.write_text(lines[0] + "\n")
    chances = json.loads(run("host.replay", str(record), "--legal").stdout)
    assert len(chances) == 36 and chances[0] == {"step": "1,1", "probability": "1/36"}


def test_replay_of_a_missing_file_says_so():
    result = run("host.replay", "no/such/file.jsonl")
    assert result.returncode == 1 and "no/such/file.jsonl" in result.stderr


def test_replay_refuses_a_hostile_file_with_a_short_message(tmp_path):
    record = tmp_path / "game.jsonl"
    head = {"record": 1, "game": "detour", "board": "detour", "players": 2, "options": {}}
    board = tmp_path / "board.json"
    with open(ROOT + "/boards/detour.json") as f:
        board.write_text(f.read())  # a real board where a path points: never read
    cases = [
        (b"\xff\xfe" + json.dumps(head).encode(), "line 1: not UTF-8 text"),
        (json.dumps(head).encode() + b"\n{\"roll\": \"\xe9\"}", "line 2: not UTF-8 text"),
        (b"[" * 100000 + b"]" * 100000, "line 1: not valid JSON"),
        (json.dumps(dict(head, game=["detour"])).encode(), "line 1: field 'game' must be str"),
        (json.dumps(dict(head, board=str(board))).encode(), "line 1: there is no board %r in boards/" % str(board)),
        (json.dumps(dict(head, board="../boards/detour")).encode(), "line 1: there is no board '../boards/detour'"),
        (json.dumps(head).encode() + b'\n{"roll": "' + b"6" * (10 << 20) + b'"}', "line 2: the file goes on past 1024 KB"),
    ]
    for data, says in cases:
        record.write_bytes(data)
        result = run("host.replay", str(record))
        assert result.returncode == 1 and "Traceback" not in result.stderr
        assert result.stderr.startswith("%s: %s" % (record, says)) and len(result.stderr) < 300, result.stderr[:300]


def test_sim_takes_rule_options_and_records_them(tmp_path):
    record = tmp_path / "game.jsonl"
    result = run("host.sim.terminal", "--auto", "--game", "detour", "--quiet", "--option", "pieces=4", "--record", str(record))
    assert result.returncode == 0, result.stderr
    assert json.loads(record.read_text().splitlines()[0])["options"]["pieces"] == 4
    bad = run("host.sim.terminal", "--auto", "--option", "colour=red")
    assert bad.returncode == 2 and "colour" in bad.stderr


def test_sim_seats_computer_players_and_their_game_replays(tmp_path):
    record = tmp_path / "game.jsonl"
    result = run("host.sim.terminal", "--auto", "--game", "sniggle", "--seats", "search,greedy", "--quiet",
                 "--record", str(record))
    assert result.returncode == 0, result.stderr
    assert "(search, greedy)" in result.stdout and " wins after " in result.stdout
    assert run("host.replay", str(record)).returncode == 0
    bad = run("host.sim.terminal", "--auto", "--seats", "search,genius")
    assert bad.returncode == 2 and "--seats" in bad.stderr


def test_vpico_without_node_says_what_to_install_in_one_line(tmp_path):
    result = subprocess.run([sys.executable, "-m", "host.pico.vpico"], cwd=ROOT, capture_output=True, text=True,
                            timeout=60, env={"PATH": str(tmp_path)})  # a PATH without node
    assert result.returncode == 1
    assert result.stderr == ("make vpico needs node (Node.js 20): install it (Debian: apt install nodejs npm), "
                             "then make setup\n")
