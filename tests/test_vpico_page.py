"""make vpico's page in Chromium: the emulated Pico's board played by clicks
(the die button bounces, a piece lifted off and set onto its reed of the
74HC165 chain, a wheel clicked through its Gray code, a counter through a
pocket's beam), its lights and record the Pico's own over the USB link. A
turn played so gives the record lines the simulated board (Rig) gives for
the same throws, and mpremote reaches the same Pico while the page is open."""

import json

import pytest

from app.keeper import SAVES, Keeper
from hal.buttons import LONG_MS
from host.pico.vpico import VirtualPico
from host.rig import Bytes, Rig
from rules.core import DECIDE, ROLL
from test_browser import browser, page, press, steps  # noqa: F401 (fixtures; without Chromium: skipped with the reason)
from test_vpico import (SETTLED_MS, build_dir, detour_at_a_star, free_wheel, fresh_game, image,  # noqa: F401
                        mpremote, plain_moves, prepared, record, roll_of)

pytestmark = [pytest.mark.pico, pytest.mark.browser]

WAIT_MS = 180_000  # for the page to follow the emulated Pico (a busy machine runs it slowly)


def rig_beside(tmp_path, name, game, played):
    """The simulated board on the same game with the same record."""
    (tmp_path / "rig").mkdir()
    keeper = Keeper("%s/rig/" % tmp_path, name)
    keeper.begin(fresh_game(name))
    for text in played:
        keeper.played(text, game)
    return Rig(type(game).load(game.board, game.save()), Bytes([0]), keeper=keeper)


def rig_record(tmp_path, name):
    return (tmp_path / "rig" / SAVES / ("game-%s.jsonl" % name)).read_text().splitlines()


def listed(page, count):
    """Until the page's record lists ``count`` steps (the Pico's record, over its USB link)."""
    page.wait_for_function("n => document.querySelectorAll('#record li:not(.empty)').length >= n", arg=count,
                           timeout=WAIT_MS)
    steps(page, count)


def click(page, space):
    page.click('#board .space[data-space="%d"]' % space)


def hold(page, pico, ms):
    """Button 1 held down ``ms`` of the Pico's time (the emulator may run slower than the wall clock)."""
    page.locator('.press[data-button="0"]').hover()
    page.mouse.down()
    pico.wait(ms)
    page.mouse.up()


def open_page(page, pico, played):
    page.goto(pico.url)
    page.wait_for_selector("body.pico #board[data-frame]", timeout=WAIT_MS)
    assert page.inner_text("#brand") == "Emulated Pico" and page.is_visible(".press")
    listed(page, len(played))


@pytest.mark.parametrize("name", ["detour", "sniggle", "mehen"])
def test_a_turn_played_by_clicks_gives_the_simulators_record(build_dir, tmp_path, page, name):  # noqa: F811
    if name == "detour":
        game, played = detour_at_a_star()  # a wheel turn, then a move
    else:
        game, played = prepared(name, steps=12, until=lambda g: g.phase == ROLL)
    rig = rig_beside(tmp_path, name, game, played)
    with VirtualPico(image(build_dir, tmp_path, name, game, played), board=name, web_port=0) as pico:
        open_page(page, pico, played)
        # the page set the pieces where the Pico's game has them
        for s, count in enumerate(game.occupancy()):
            if count:
                assert page.get_attribute('.piece[data-piece="%d"]' % s, "data-count") == str(count)
        pico.wait(SETTLED_MS)  # the reeds settle
        at = len(played)
        if name == "detour":
            w = free_wheel(rig.game)
            page.click('[data-wheel="%d"][data-by="1"]' % w)
            at += 1
            listed(page, at)
            rig.turn(w, 1)
        if rig.game.phase == ROLL:
            press(page, 0, hold_ms=150)
            at += 1
            listed(page, at)
            rolled = record(pico)[-1]
            rig.ctl.ports.chance.urandom.values = bytes(roll_of(rig.game, rolled))  # the Pico's throw
            rig.press(0)
        if rig.game.phase == DECIDE:
            decision = plain_moves(rig.game)[0]
            f, t = next((f, t) for d, f, t in rig.ctl.moves if d == decision)
            click(page, f)
            page.wait_for_selector("#hand .token")  # the piece is in the hand
            pico.wait(300)  # the reed has been open long enough to read as a lift
            click(page, t)
            at += 1
            listed(page, at)
            rig.act(decision)
        assert record(pico) == rig_record(tmp_path, name)
        assert len(record(pico)) == at + 1
        page.screenshot(path=str(tmp_path / ("vpico-%s.png" % name)))
        print("screenshot:", tmp_path / ("vpico-%s.png" % name))


def test_snuka_by_clicks_and_mpremote_beside_the_page(build_dir, tmp_path, page):  # noqa: F811
    name = "snuka"
    game, played = fresh_game(name), []
    rig = rig_beside(tmp_path, name, game, played)
    with VirtualPico(image(build_dir, tmp_path, name, game, played), board=name, web_port=0) as pico:
        open_page(page, pico, played)
        pico.wait(SETTLED_MS)
        pocket = rig.game.board.space("TL")
        click(page, pocket)  # a counter drops through the pocket's beam: the pots come first
        pico.wait(100)
        hold(page, pico, LONG_MS + 300)  # holding button 1 takes the choice it offers first
        listed(page, 1)
        rig.beam("TL")
        rig.hold(0)
        assert record(pico) == rig_record(tmp_path, name)
        assert rig.game.parse(json.loads(record(pico)[-1])["play"])[0] == "pot"
        # a click that makes no sense on this board says so, and nothing changes
        answer = page.evaluate("() => fetch('/api/sessions/live', {method: 'POST', body: JSON.stringify({do: 'pause'})})"
                               ".then(r => r.json())")
        assert "cannot do 'pause'" in answer["error"]
        # mpremote reaches the same Pico while the page is open; the page says the board went away meanwhile
        listing = mpremote(pico.port, "fs", "ls", ":" + SAVES)
        assert "game-snuka.jsonl" in listing
        mpremote(pico.port, "reset")
        page.wait_for_selector("#say:text('Live from the board')", timeout=WAIT_MS)
        hold(page, pico, LONG_MS + 300)  # after the reset the page plays on
        listed(page, 2)
        assert len(record(pico)) == 3
