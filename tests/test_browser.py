"""The board in a browser (make sim), played in headless Chromium as a person
plays it: clicks on the pieces, the spaces, the die buttons and the wheels.
What the page lights must be exactly what the firmware's pixel port sent."""

import os
import re
import shutil
import subprocess
import sys

import pytest

from host.rig import Bytes
from host.sim.screen import screen_colours
from test_web_server import serving

pytestmark = pytest.mark.browser

ROOT = __file__.rsplit("/tests/", 1)[0]
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


def start(page, server, game, seats, board="sensors"):
    """Set up a game on the page, as a newcomer does; return the server's session."""
    page.goto(server.url)
    page.click('[data-game="%s"]' % game)
    page.select_option("#sensors", board)
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
    pixel port last sent, through host.sim.screen as every simulator shows it."""
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
    with serving(urandom=Bytes([0, 2, 0, 1, 0, 5])) as server:
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
    with serving() as server:
        session = start(page, server, "sniggle", ["human", "human"])
        assert page.locator(".piece").count() == 8  # four numbered pieces each, on their start squares
        press(page, 1)
        steps(page, 1)
        assert "throws" in page.inner_text("#record")
        assert_shows_the_firmware_frame(page, session)


def test_mehen_against_a_computer_and_the_record_replays(page, tmp_path):
    # sticks: a byte's low 3 bits; 3 = two flat sides, a throw of 2
    with serving(urandom=Bytes([3])) as server:
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
        steps(page, played)  # the whole record stays listed, the step shown marked
        assert page.get_attribute("#record [aria-current]", "data-step") == "1"


def test_snuka_is_played_with_the_buttons(page):
    with serving() as server:
        session = start(page, server, "snuka", ["human", "human"])
        click_space(page, "TL")  # a counter drops through the top-left pocket: the pots come first
        page.wait_for_function("() => document.getElementById('picked').textContent.startsWith('R: player 1 pots the red')")
        press(page, 0, 900)  # a long press confirms: a red potted
        steps(page, 1)
        shows(page, "#players-list", "1 point")
        assert page.locator("[data-panel]").count() == 12
        panel(page, "black")  # the board's own button: the black potted
        steps(page, 2)
        shows(page, "#players-list", "8 points")
        assert session.keeper.steps == 2 and "K" in page.inner_text("#record")
        assert_shows_the_firmware_frame(page, session)


def test_the_computer_players_go_at_the_speed_chosen_step_by_step_or_instantly(page):
    with serving() as server:
        session = start(page, server, "sniggle", ["search", "greedy"])
        assert page.input_value("#speed") == "fast"
        page.select_option("#speed", "step")
        page.wait_for_selector("#next-step:not([hidden])")
        page.wait_for_timeout(1500)  # a step under way when the speed changed is finished
        taken = session.keeper.steps
        steps(page, taken)
        page.wait_for_timeout(1000)
        assert session.keeper.steps == taken  # nothing happens until a person asks
        page.click("#next-step")
        steps(page, taken + 1)
        page.wait_for_timeout(1000)
        assert session.keeper.steps == taken + 1  # one step for each ask
        page.keyboard.press("n")
        steps(page, taken + 2)
        page.select_option("#speed", "instant")
        shows(page, "#phase", "Game over")
        assert page.is_hidden("#next-step")
        steps(page, session.keeper.steps)


def test_make_sim_serves_the_page_on_the_port_it_prints(page):
    server = subprocess.Popen([sys.executable, "-m", "host.sim.web", "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        assert "http://127.0.0.1:" in line
        page.goto(line.split("open ")[1].split()[0])
        page.wait_for_selector(".game")
        assert page.locator(".game").count() == 4
    finally:
        server.terminate()
        server.wait(timeout=10)


def space_named(page, sid):
    """The space as a screen reader finds it: a button labelled with its name first."""
    return page.get_by_role("button", name=re.compile("^%s, " % sid))


def focused(page):
    return page.evaluate("document.activeElement.dataset.id")


def test_a_board_without_sensors_is_played_with_button_1(page):
    with serving(urandom=Bytes([0, 2])) as server:  # dice 1 and 3
        session = start(page, server, "detour", ["human", "human"], board="buttons")
        assert session.sensors is False and page.locator("#hand-card").is_hidden()
        shows(page, "#help", "This board has no sensors: button 1 steps through what may happen now")
        press(page, 0)
        steps(page, 1)
        shows(page, "#picked", "a1: piece 1a moves 1: d1 -> e1")  # the pieces went onto START by themselves
        click_space(page, "d1")
        shows(page, "#notes", "this board has no piece sensors: button 1 shows the next move")
        press(page, 0)
        shows(page, "#picked", "a3: piece 1a moves 3: d1 -> g1")
        press(page, 0, 900)  # a long press makes it
        steps(page, 2)
        g1 = session.rig.game.board.space("g1")
        page.wait_for_selector('.piece[data-piece="%d"]' % g1)
        assert session.hand == [] and "a3" in page.inner_text("#record")
        assert_shows_the_firmware_frame(page, session)


def test_every_space_is_reached_and_played_with_the_keyboard(page, tmp_path):
    with serving(urandom=Bytes([0, 2])) as server:  # dice 1 and 3
        session = start(page, server, "detour", ["human", "human"])
        page.keyboard.press("a")
        steps(page, 1)
        d1 = space_named(page, "d1")
        assert d1.get_attribute("aria-label") == "d1, start: empty; light: put a piece here (amber, blinking)"
        d1.focus()
        page.keyboard.press("Enter")  # a piece from the box onto d1
        page.keyboard.press("ArrowUp")  # up the left edge: c2 ... a4 are not straight ahead, a4 is reached by name
        space_named(page, "a4").focus()
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.querySelector('[data-id=d1]').getAttribute('aria-label')"
                               ".includes('light: a piece that may move')")
        assert d1.get_attribute("aria-label") == ("d1, start: player 1's piece a pointing east; "
                                                  "light: a piece that may move (breathing)")
        d1.focus()
        page.keyboard.press("Enter")  # lifted
        shows(page, "#say", "put the piece down on a white space")
        page.wait_for_function("() => document.querySelector('[data-id=g1]').getAttribute('aria-label')"
                               " === 'g1, path: empty; light: the lifted piece may go here (white)'")
        assert page.locator("#hand .token").get_attribute("aria-label") == "player 1's piece a, taken from d1"
        page.keyboard.press("Escape")  # put back where it was taken from
        shows(page, "#say", "lift a glowing piece")
        assert session.hand == [] and session.phys[session.rig.game.board.space("d1")]
        d1.focus()
        page.keyboard.press("ArrowRight")
        assert focused(page) == "e1"
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert focused(page) == "g1"
        page.keyboard.press("ArrowLeft")
        assert focused(page) == "f1"
        d1.focus()
        page.keyboard.press("Enter")
        space_named(page, "g1").focus()
        page.keyboard.press("Enter")  # a3: the move made with keys alone
        steps(page, 2)
        assert '{"play": "a3"}' in session.record_text()

        assert page.get_by_role("button", name="Turn wheel 1 a quarter turn clockwise").count() == 1
        page.keyboard.press("Digit1")  # wheel 1 a quarter clockwise, when no turn is due
        shows(page, "#say", "turn wheel 1 back")
        assert session.rig.sim.positions[0] == 1
        page.keyboard.press("Shift+Digit1")  # and back
        page.wait_for_function("() => !document.getElementById('say').textContent.includes('wheel')")
        assert session.rig.sim.positions[0] == 0

        record = tmp_path / "detour.jsonl"
        record.write_text(session.record_text())
        page.set_input_files("#load", str(record))
        shows(page, "#replay-at", "Step 2 of 2")
        page.keyboard.press("Home")
        shows(page, "#replay-at", "Step 0 of 2")
        page.keyboard.press("ArrowRight")
        shows(page, "#replay-at", "Step 1 of 2")
        page.keyboard.press("End")
        shows(page, "#replay-at", "Step 2 of 2")
        page.keyboard.press("ArrowLeft")
        shows(page, "#replay-at", "Step 1 of 2")


def test_each_player_has_a_shape_beside_their_colour_and_the_legend_says_so(page):
    with serving() as server:
        start(page, server, "sniggle", ["human", "human"])
        marks = page.evaluate("""() => [0, 1].map(p => [...document.querySelectorAll(
            `.piece [data-owner="${p}"] .owner-mark path`)].map(e => e.getAttribute('d')))""")
        assert [len(m) for m in marks] == [4, 4]  # on every piece
        assert len(set(marks[0])) == 1 and len(set(marks[1])) == 1 and marks[0][0] != marks[1][0]
        chips = page.locator("#players-list .chip path")
        assert [chips.nth(p).get_attribute("d") for p in (0, 1)] == [marks[0][0], marks[1][0]]
        legend = page.inner_text("#legend")
        assert "Player 1: the disc on their pieces and in the panel" in legend
        assert "Player 2: the triangle" in legend
        assert "amber, blinking: put a piece here" in legend and "red, fast blink: wrong here" in legend
        swatch = page.locator("#legend .swatch.fast")
        assert swatch.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(255, 0, 0)"  # app.colours.RED


@pytest.mark.parametrize("game, has", [("detour", ("wheel", "die")), ("sniggle", ("die",)), ("mehen", ("sticks",)), ("snuka", ())])
def test_the_legend_lists_only_what_the_board_has(page, game, has):
    with serving() as server:
        start(page, server, game, ["human", "human"])
        legend = page.inner_text("#legend")
        assert ("turn this wheel back" in legend) == ("wheel" in has)
        assert ("the die glows" in legend) == ("die" in has)
        assert ("the throw sticks glow" in legend) == ("sticks" in has)


def test_the_board_log_lists_what_the_controller_logs(page):
    with serving() as server:
        session = start(page, server, "mehen", ["human", "human"])
        shows(page, "#log", "Nothing yet")
        press(page, 1, 900)  # a long press of button 2 offers a new game
        shows(page, "#say", "New game?")
        press(page, 1, 900)  # and a second one starts it
        shows(page, "#log", "new game")
        assert session.notes == ["new game"]
