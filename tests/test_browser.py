"""The board in a browser (make sim), played in headless Chromium as a person
plays it: clicks on the pieces, the spaces, the die buttons and the wheels.
What the page lights must be exactly what the firmware's pixel port sent."""

import os
import shutil
import subprocess
import sys

import pytest

from hal.simulated import Bytes
from host.screen import screen_colours
from test_web_server import serving

ROOT = __file__.rsplit("/tests/", 1)[0]
PACE_MS = 120  # computer seats act this often
# the browser: where CHROMIUM points, else the first of these on the PATH
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
CHROMIUM = os.environ.get("CHROMIUM") or next(filter(None, map(shutil.which, BROWSERS)), None)

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed (make setup installs it)")
if not CHROMIUM or not os.path.exists(CHROMIUM):
    why = ("no Chromium at %s" % CHROMIUM if CHROMIUM else "no Chromium or Chrome on the PATH") + (
        ": install it (Debian, Ubuntu: sudo apt install chromium) or point CHROMIUM=/path/to/chrome at one")
    if os.environ.get("CI"):
        pytest.fail("the browser tests must run in CI, but there is " + why, pytrace=False)
    pytest.skip(why, allow_module_level=True)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    yield page
    page.close()
    assert not errors, errors


def start(page, server, game, seats):
    """Set up a game on the page, as a newcomer does; return the server's session."""
    page.goto(server.url)
    page.click('[data-game="%s"]' % game)
    page.select_option("#players", str(len(seats)))
    for i, seat in enumerate(seats):
        page.select_option("#seats select >> nth=%d" % i, seat)
    page.click("#start")
    page.wait_for_selector("#board[data-frame]")
    key = page.evaluate("location.hash").split("=")[1]
    return server.sessions[key]


def steps(page, count, exact=True):
    """Wait until the game record on the page lists ``count`` steps (or more)."""
    page.wait_for_function("n => document.querySelectorAll('#record li:not(.empty)').length >= n", arg=count)
    if exact:
        assert page.locator("#record li:not(.empty)").count() == count


def shows(page, selector, text):
    """Wait until the element shows ``text``: the panel follows the board within a frame or two."""
    page.wait_for_function("([s, t]) => document.querySelector(s).textContent.includes(t)", arg=[selector, text])


def click_space(page, sid):
    page.click('.space[data-id="%s"]' % sid)


def move(page, start_id, end_id, count):
    click_space(page, start_id)
    click_space(page, end_id)
    steps(page, count)


def press(page, button, hold_ms=0):
    page.locator('.press[data-button="%d"]' % button).hover()
    page.mouse.down()
    page.wait_for_timeout(hold_ms)
    page.mouse.up()


def panel(page, name, hold_ms=80):
    """Press the board's own button ``name`` (Tiddlee Snuka)."""
    page.locator('[data-panel="%s"]' % name).hover()
    page.mouse.down()
    page.wait_for_timeout(hold_ms)
    page.mouse.up()


def assert_shows_the_firmware_frame(page, session, resume=True):
    """Freeze the clock, then every pixel drawn on the page has the colour the
    pixel port last sent, through host.screen as every simulator shows it."""
    page.click("#pause")
    page.wait_for_selector("#paused-tag:not([hidden])")
    with session.lock:
        frame = session.frame_sent  # the last frame that showed something new
        sent = ["#%02x%02x%02x" % c for c in screen_colours(session.rig.ctl.ports.pixels)]
    page.wait_for_function("n => document.getElementById('board').dataset.frame === String(n)", arg=frame)
    shown = page.evaluate("() => [...document.querySelectorAll('[data-led]')].map(e => [+e.dataset.led, e.getAttribute('fill')])")
    assert sorted(led for led, _ in shown) == list(range(len(sent)))  # every pixel of the board is drawn once
    assert dict(shown) == dict(enumerate(sent))
    assert sum(1 for c in sent if c != "#000000") >= 3  # something is lit: the check is not of a dark board
    if resume:
        page.click("#pause")


def test_a_detour_turn_played_with_clicks(page, tmp_path_factory):
    # dice: 1,3 for player 1; 1,2 for player 2; then 1,6 for player 1 (a byte b is the face b + 1)
    with serving(urandom=Bytes([0, 2, 0, 1, 0, 5]), pace_ms=PACE_MS) as server:
        session = start(page, server, "detour", ["human", "human"])
        press(page, 0)
        steps(page, 1)
        shows(page, "#say", "Put the pieces on their START: d1, a4")  # the first roll brings them into play
        click_space(page, "d1")
        click_space(page, "a4")
        page.wait_for_selector('.piece[data-piece="%d"]' % session.rig.game.board.space("a4"))
        move(page, "d1", "e1", 2)
        move(page, "a4", "a7", 3)
        page.keyboard.down("l")  # player 2 rolls with the key of button 2
        page.keyboard.up("l")
        steps(page, 4)
        click_space(page, "d1")
        click_space(page, "a4")
        move(page, "d1", "f1", 5)
        move(page, "a4", "a5", 6)
        press(page, 0)
        steps(page, 7)
        move(page, "a7", "c3", 8)  # b6: onto the star
        shows(page, "#phase", "Turn a wheel")
        page.click('[data-wheel="0"][data-by="1"]')
        steps(page, 9)
        record = page.inner_text("#record")
        assert "W1+" in record and "a star! player 1 turns a wheel" in record
        assert page.get_attribute(".spin >> nth=0", "style") == "transform: rotate(90deg);"
        arrow = page.locator('.piece[data-piece="%d"] polygon' % session.rig.game.board.space("c3"))
        assert arrow.count() == 1  # piece 1b stands on the star, an arrow with its heading
        assert session.rig.game.wheels[0] == 1 and session.rig.sim.positions[0] == 1
        assert_shows_the_firmware_frame(page, session)
        shots = tmp_path_factory.mktemp("screenshots")
        page.screenshot(path=str(shots / "detour.png"))
        print("screenshot:", shots / "detour.png")


def test_sniggle_rolls_and_shows_the_frame(page):
    with serving(pace_ms=PACE_MS) as server:
        session = start(page, server, "sniggle", ["human", "human"])
        assert page.locator(".piece").count() == 8  # four numbered pieces each, on their start squares
        press(page, 1)
        steps(page, 1)
        assert "throws" in page.inner_text("#record")
        assert_shows_the_firmware_frame(page, session)


def test_mehen_against_a_computer_and_the_record_replays(page, tmp_path):
    # sticks: a byte's low 3 bits; 3 = two flat sides, a throw of 2
    with serving(urandom=Bytes([3]), pace_ms=PACE_MS) as server:
        session = start(page, server, "mehen", ["human", "greedy"])
        press(page, 0)
        steps(page, 1)
        click_space(page, "1")  # a marble off the tail stack, two squares on
        click_space(page, "3")
        steps(page, 4, exact=False)  # the computer throws and moves through the same board
        assert_shows_the_firmware_frame(page, session, resume=False)
        played = session.keeper.steps
        steps(page, played)
        with page.expect_download() as download:
            page.click("#download")
        record = tmp_path / "mehen.jsonl"
        download.value.save_as(record)
        assert len(record.read_text().splitlines()) == 1 + played  # the header and every step
        page.set_input_files("#load", str(record))
        shows(page, "#replay-at", "Step %d of %d" % (played, played))
        page.click('[data-go="first"]')
        shows(page, "#replay-at", "Step 0 of %d" % played)
        assert page.locator('.piece[data-count="6"]').count() == 1  # every marble back on the tail
        page.click('[data-go="next"]')
        shows(page, "#replay-at", "Step 1 of %d" % played)
        steps(page, 1)


def test_snuka_is_played_with_the_buttons(page):
    with serving(pace_ms=PACE_MS) as server:
        session = start(page, server, "snuka", ["human", "human"])
        click_space(page, "TL")  # a counter drops through the top-left pocket: the pots come first
        page.wait_for_function("() => document.getElementById('picked').textContent.startsWith('R: player 1 pots the red')")
        press(page, 0, 900)  # a long press confirms: a red potted
        steps(page, 1)
        shows(page, "#players-list", "1 points")
        assert page.locator("[data-panel]").count() == 12
        panel(page, "black")  # the board's own button: the black potted
        steps(page, 2)
        shows(page, "#players-list", "8 points")
        assert session.keeper.steps == 2 and "K" in page.inner_text("#record")
        assert_shows_the_firmware_frame(page, session)


def test_make_sim_serves_the_page_on_the_port_it_prints(page):
    server = subprocess.Popen([sys.executable, "-m", "host.web", "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        assert "http://127.0.0.1:" in line
        page.goto(line.split("open ")[1].split()[0])
        page.wait_for_selector(".game")
        assert page.locator(".game").count() == 4
    finally:
        server.terminate()
        server.wait(timeout=10)
