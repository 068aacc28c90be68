"""Start-up files: mutated config.json and pin maps, read as the Pico reads them.

Each case writes a Pico's filesystem (the real boards, the real pin map, a
config.json for a random board) with one file mutated: a field replaced by
a hostile value or another field's, removed, added, an option changed, or
the whole file broken (cut short, bytes flipped, not UTF-8, nested deep,
not an object). Then ``app.startup`` reads it as the Pico does at power-up:
``read_config``, ``read_pins``, ``new_game``, ``check_inputs``,
``wheel_count``. A case fails as

- a traceback: anything but ``ConfigError`` escaped;
- unnamed: the message does not name the file at fault and a field of it
  (config.json's field, the pin map's role) or what is wrong with the whole
  file.
"""

import json
import random
import shutil
import tempfile
from pathlib import Path

from app import startup
from hal.pins import GROUPS, REQUIRED

NAME = "configs"
CASES = 10000
ROOT = Path(__file__).resolve().parent.parent.parent
BOARDS = ("detour", "sniggle", "mehen", "snuka")
ROLES = REQUIRED + tuple(role for group in GROUPS for role in group)
# what a broken whole file is told
VERDICTS = ("the file is missing", "not valid JSON", "must be a JSON object", "must hold a JSON object")
HOSTILE = (0, 1, -1, 2, 7, 28, 40, 450, 1800, 5000, 1 << 40, -(1 << 40), 1.5, float("inf"), True, False, None,
           "", "x", "detour", "sniggle", "snuka", "mehen", "buttons", "sensors", "../config", "boards/detour",
           "/etc/passwd.json", "hardware", "hardware/", "a\u0000b.json", "\u00e9", "a" * 3000,
           [], [2], {}, {"pieces": 4}, {"x": 1}, [[[[[[[[]]]]]]]])
OPTIONS = ("pieces", "first_player", "half_turns", "colours", "lions", "hunt", "x")
SHOWN = 160  # how much of a failing case is printed


def _short(value):
    text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + "... (%d characters)" % len(text)


def _copy(value):
    return json.loads(json.dumps(value))


def _config(rng):
    """A config.json as a maker might write it, every field or only some."""
    config = {"board": rng.choice(BOARDS)}
    for name, value in startup.DEFAULTS:
        if rng.random() < 0.5:
            config[name] = _copy(value)
    if rng.random() < 0.3:
        config["players"] = rng.randrange(2, 5)  # every game takes 2 to 4
    return config


def _mutated_tree(tree, rng, names):
    """``tree`` (a dict) with one field changed: ``names`` are the file's known fields."""
    key = rng.choice(list(tree) or ["x"])
    how = rng.randrange(5 if "options" in names else 4)
    if how == 0:
        tree[key] = _copy(rng.choice(HOSTILE))
    elif how == 1 and tree:
        tree[key] = _copy(tree[rng.choice(list(tree))])
    elif how == 2 and key in tree:
        del tree[key]
    elif how == 3:
        tree[rng.choice(names)] = _copy(rng.choice(HOSTILE))  # a known field, maybe not there yet
    else:
        options = tree.get("options") if isinstance(tree.get("options"), dict) else {}
        options[rng.choice(OPTIONS)] = _copy(rng.choice(HOSTILE))
        tree["options"] = options


def _broken_bytes(text, rng):
    """The file's bytes broken as a bad copy or a bad editor would."""
    data = bytearray(text.encode())
    how = rng.randrange(6)
    if how == 0:
        return bytes(data[:rng.randrange(len(data))])
    if how == 1:
        for _ in range(rng.randrange(1, 4)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data)
    if how == 2:
        return b"\xff\xfe" + bytes(data)
    if how == 3:
        depth = rng.choice((10, 1000, 100000))
        return b"[" * depth + b"]" * depth
    if how == 4:
        return rng.choice((b"", b"[]", b"42", b'"detour"', b"null", b"1e999", b"NaN"))
    return json.dumps([json.loads(text)]).encode()


def _named(message, file, fields):
    """Whether ``message`` names ``file`` and either a field of it or what is wrong with the whole file."""
    return file in message and (any(verdict in message for verdict in VERDICTS) or "unknown" in message
                                or any("'%s'" % name in message for name in fields))


def _start(root):
    """What start() reads before it builds the ports, as the Pico runs it."""
    config = startup.read_config(root)
    pins = startup.read_pins(config, root)
    game = startup.new_game(config, root)
    startup.check_inputs(game, pins, config)
    startup.wheel_count(game, pins, config["pins"])


def case(root, rng):
    """One mutated start-up; returns a failure (kind, text) or None."""
    config = _config(rng)
    pins = json.loads((ROOT / "hardware" / "pins.json").read_text())
    target = "config.json" if rng.random() < 0.65 else startup.PIN_MAP
    tree, roles = (config, startup.FIELDS) if target == "config.json" else (pins, ROLES)
    if rng.random() < 0.2:
        data = _broken_bytes(json.dumps(tree), rng)
    else:
        _mutated_tree(tree, rng, roles)
        data = json.dumps(tree).encode()
    files = {"config.json": json.dumps(config).encode(), startup.PIN_MAP: json.dumps(pins).encode()}
    files[target] = data
    for name, content in files.items():
        (root / name).write_bytes(content)
    try:
        _start(str(root) + "/")
    except startup.ConfigError as err:
        message = str(err)
        if not _named(message, target, roles):
            return "unnamed", "%s %s -> %s" % (target, _short(data), message)
    except Exception as err:  # what a maker would see as a traceback on the Pico
        return "traceback", "%s %s -> %s: %s" % (target, _short(data), type(err).__name__, err)
    return None


def run(cases=CASES, seed=1):
    rng = random.Random(seed)
    counts = {"traceback": 0, "unnamed": 0}
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        shutil.copytree(ROOT / "boards", root / "boards", ignore=shutil.ignore_patterns("*.md"))
        (root / "hardware").mkdir()
        for _ in range(cases):
            failure = case(root, rng)
            if failure:
                kind, text = failure
                counts[kind] += 1
                print("configs: %s: %s" % (kind, text), flush=True)
    return "configs: {:,} mutated, {:,} tracebacks, {:,} unnamed".format(cases, counts["traceback"], counts["unnamed"])
