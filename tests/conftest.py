"""What every test is held to beyond its own asserts.

A controller that catches a fault in one of its tasks logs it and goes on,
as it must on the board, so a test that only looks at the game would pass
over it: every ``host.rig.Rig`` made during a test must end it with no
fault counted (``Controller.faults``: logged, or counted between a save's
writes), unless the test breaks a part on purpose and says so: its name is
in its module's ``FAULTS_EXPECTED`` (not a pytest mark: MicroPython runs
the shared tests too).
"""

import pytest
from host.rig import Rig


@pytest.fixture(autouse=True)
def no_faults(request, monkeypatch):
    rigs = []
    made = Rig.__init__

    def watched(self, *args, **kw):
        made(self, *args, **kw)
        rigs.append(self)

    monkeypatch.setattr(Rig, "__init__", watched)
    yield
    name = getattr(request.node, "originalname", request.node.name)
    if name in getattr(request.module, "FAULTS_EXPECTED", ()):
        return
    faulty = ["%s game: %d" % (rig.ctl.game.name, rig.ctl.faults) for rig in rigs if rig.ctl.faults]
    assert not faulty, "the controller counted faults: " + ", ".join(faulty)
