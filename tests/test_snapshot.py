"""Paint, the USB link, the simulators and the bench read the controller's
snapshot and nothing else of it, and write into neither (app.controller)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
READERS = ["firmware/app/paint.py", "firmware/app/snuka_look.py", "firmware/app/link.py", "firmware/app/device.py",
           "host/rig.py", *(str(p.relative_to(ROOT)) for p in sorted((ROOT / "host" / "sim").rglob("*.py"))),
           *(str(p.relative_to(ROOT)) for p in sorted((ROOT / "host" / "bench").glob("*.py")))]
# what they may use of a controller: its snapshot, the methods that tell it what to do, and
# the main loop's two questions (when to collect, how long to sleep)
COMMANDS = {"snapshot", "tick", "play", "new_game", "ask_hint", "fault", "animate", "collect_due", "pause_us"}
# the link takes, once, the parts it reads the record and the frames from
TAKEN = {"firmware/app/link.py": {"ports", "keeper"}}


def _controller(node):
    """Whether ``node`` names a controller: ``ctl``, ``x.ctl``."""
    return isinstance(node, ast.Name) and node.id == "ctl" or isinstance(node, ast.Attribute) and node.attr == "ctl"


def _snapshot(node):
    """Whether ``node`` names a snapshot: ``snap``, ``x.snap``, ``x.snapshot``."""
    return (isinstance(node, ast.Name) and node.id == "snap"
            or isinstance(node, ast.Attribute) and node.attr in ("snap", "snapshot"))


def _written(target):
    """The attribute and subscript targets of an assignment, inner ones included."""
    while isinstance(target, (ast.Attribute, ast.Subscript)):
        yield target.value
        target = target.value


def test_only_the_snapshot_and_commands_are_used_of_the_controller():
    for path in READERS:
        tree = ast.parse((ROOT / path).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _controller(node.value):
                assert node.attr in COMMANDS | TAKEN.get(path, set()), \
                    "%s:%d reads ctl.%s" % (path, node.lineno, node.attr)


def test_nothing_outside_the_controller_writes_into_it_or_its_snapshot():
    for path in READERS:
        tree = ast.parse((ROOT / path).read_text())
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            for target in targets:
                for inner in _written(target):
                    assert not (_controller(inner) or _snapshot(inner)), \
                        "%s:%d writes into the controller" % (path, node.lineno)
