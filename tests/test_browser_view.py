"""What the browser page shows, at a desktop's 1366 x 768 and a phone's
390 x 844: lights that stay readable under the pieces, die faces that read
as their value, replay controls drawn without a font's help, a record that
marks the step shown, and on a phone the die buttons in view, targets a
finger can hit and no keys mentioned."""

import base64
import math
import os
import re

import pytest
import serial

from app import colours as C
from host.boardfile import read_board
from host.pico.live import LiveSession
from host.rig import Bytes
from host.sim.web.layout import pieces
from rules.games import new_game
from rules.playout import Rng, random_record
from rules.record import replay
from test_browser import browser, click_space, press, shows, start, steps  # noqa: F401 (browser: the fixture)
from test_live import HEADER, STEPS, following, hello, line
from test_web_server import serving

pytestmark = pytest.mark.browser

ROOT = __file__.rsplit("/tests/", 1)[0]
SHOTS = "host/sim/web/screenshots"  # the README shows them
DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
# every animation of the colour language repeats within this time: lights
# shown at a multiple of it are the same on every run
CYCLE_MS = math.lcm(C.BREATHE_MS, 2 * C.BLINK_FAST_MS, 2 * C.BLINK_MS, 2 * C.SLOW_MS, 4 * C.FLASH_MS)
DETOUR_DICE = [0, 2, 0, 1, 0, 5]  # 1,3 for player 1; 1,2 for player 2; 1,6 (a byte b is the face b + 1)


def opened(browser, settings):
    page = browser.new_page(**settings)
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    yield page
    page.close()
    assert not errors, errors


@pytest.fixture
def desktop(browser):
    yield from opened(browser, DESKTOP)


@pytest.fixture
def phone(browser):
    yield from opened(browser, PHONE)


def hold_still(page, session, at=0):
    """Pause the board, then let its clock run on (past any short flash) to
    ``at`` ms into a CYCLE_MS: the page shows the same lights on every run."""
    page.wait_for_function("() => !document.querySelector('.press.down')")  # a click's release is through
    page.click("#pause")
    page.wait_for_selector("#paused-tag:not([hidden])")
    with session.lock:
        session.rig.run(CYCLE_MS - session.rig.now % CYCLE_MS + CYCLE_MS + at)
        # the page is sent a frame only when its picture changed: wait for the last one sent, not the firmware's count
        session._publish()
        frame = session.frame_sent
    page.wait_for_function("n => +document.getElementById('board').dataset.frame >= n", arg=frame)
    page.mouse.move(0, 0)  # no button drawn as hovered


def screen_rgb(text):
    return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))


# the pixels of a PNG (base64), as the page decodes it: [r, g, b, a, r, ...]
DECODE = """async (png) => {
    const img = new Image();
    img.src = "data:image/png;base64," + png;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext("2d");
    g.drawImage(img, 0, 0);
    return g.getImageData(0, 0, c.width, c.height).data;
}"""


def share_of(page, locator, colour, near=24):
    """The share of the pixels ``locator`` covers on the screen that show
    ``colour`` (each channel within ``near``), from a screenshot."""
    png = base64.b64encode(locator.screenshot()).decode()
    return page.evaluate("""async ([png, rgb, near]) => {
        const d = await (%s)(png);
        let hits = 0;
        for (let i = 0; i < d.length; i += 4) {
            if ([0, 1, 2].every((c) => Math.abs(d[i + c] - rgb[c]) <= near)) hits++;
        }
        return hits / (d.length / 4);
    }""" % DECODE, [png, list(colour), near])


def looks_the_same(page, a, b):
    """Whether two PNGs show the same picture: the same size, and no more
    pixels apart than the rounding of a few anti-aliased edges (a light of
    the board changed is some hundreds)."""
    return page.evaluate("""async ([a, b]) => {
        const [x, y] = [await (%s)(a), await (%s)(b)];
        let apart = 0;
        for (let i = 0; i < x.length; i += 4) {
            if (Math.abs(x[i] - y[i]) + Math.abs(x[i + 1] - y[i + 1]) + Math.abs(x[i + 2] - y[i + 2]) > 24) apart++;
        }
        return x.length === y.length && apart <= 64;
    }""" % (DECODE, DECODE), [base64.b64encode(a).decode(), base64.b64encode(b).decode()])


def lens_fills(page):
    """The colour drawn for each space's light: {space id: '#rrggbb'}."""
    return page.evaluate("() => Object.fromEntries([...document.querySelectorAll('.space')].map("
                         "g => [g.dataset.id, g.querySelector('[data-led]').getAttribute('fill')]))")


def detour_after_the_first_roll(page, server):
    """Player 1 has rolled 1 and 3, and both their pieces stand on their START."""
    session = start(page, server, "detour", ["human", "human"])
    press(page, 0)
    steps(page, 1)
    click_space(page, "d1")
    click_space(page, "a4")
    shows(page, "#say", "lift a glowing piece")
    return session


def test_a_hint_is_named_and_its_light_shows_through_the_piece(desktop):
    with serving(urandom=Bytes(DETOUR_DICE)) as server:
        session = detour_after_the_first_roll(desktop, server)
        press(desktop, 0, 900)  # a long press of button 1 asks for a hint
        shows(desktop, "#say", "Hint")
        named = re.search(r"Hint: the piece on (\w+) to (\w+)", desktop.inner_text("#say"))
        assert named, desktop.inner_text("#say")
        hold_still(desktop, session)  # a moment the hint is lit
        fills = lens_fills(desktop)
        white = fills[named[1]]
        assert {sid for sid, c in fills.items() if c == white} == {named[1], named[2]}  # the spaces the panel names blink
        r, g, b = screen_rgb(white)
        assert r == g == b > 128
        cell = desktop.locator('.space[data-id="%s"] .tile' % named[1])
        piece = desktop.locator('.piece[data-piece="%d"]' % session.rig.game.board.space(named[1]))
        assert piece.count() == 1  # a piece stands on the hinted space ...
        assert share_of(desktop, cell, (r, g, b)) >= 0.2  # ... and its light shows through and around it
        letter = piece.locator("text").bounding_box()
        assert letter["height"] >= 14  # the piece's letter reads at a glance


def test_a_die_face_shows_its_pips_and_nothing_else(desktop):
    with serving(urandom=Bytes(DETOUR_DICE)) as server:
        detour_after_the_first_roll(desktop, server)
        shows(desktop, "#dice-text", "Thrown: 1 and 3")
        # a pip reads as a pip where its colour stands out from the face; the frame that shows the
        # throw may come a moment after the panel's text, so the faces are read until they settle
        pips = """() => [...document.querySelectorAll('.roller svg')].map(face => {
            const rgb = (c) => c.match(/\\d+/g).slice(0, 3).map(Number);
            const bg = rgb(getComputedStyle(face.querySelector('.face-bg')).fill);
            return [...face.querySelectorAll('[data-led]')].filter(pip => {
                const style = getComputedStyle(pip);
                const a = Number(style.fillOpacity);
                return rgb(style.fill).some((v, i) => Math.abs(v * a + bg[i] * (1 - a) - bg[i]) > 40);
            }).length;
        })"""
        desktop.wait_for_function("(pips) => String((eval(pips))()) === '1,3'", arg=pips, timeout=5000)
        assert desktop.evaluate(pips) == [1, 3]


def drawn_pieces(page):
    """How many pieces the page draws on each space: {space number: count}."""
    return page.evaluate("() => Object.fromEntries([...document.querySelectorAll('.piece')].map("
                         "g => [g.dataset.piece, +g.dataset.count]))")


def test_a_replay_marks_its_step_and_goes_to_a_step_clicked(desktop, tmp_path):
    lines = random_record(new_game("mehen", read_board("mehen"), 2), Rng(5), 12)
    record = tmp_path / "mehen.jsonl"
    record.write_text("\n".join(lines) + "\n")
    with serving() as server:
        desktop.goto(server.url)
        desktop.set_input_files("#load-setup", str(record))
        shows(desktop, "#replay-at", "Step 12 of 12")
        for go in ("first", "back", "next", "last"):  # drawn icons, which no font can lack
            button = desktop.locator('[data-go="%s"]' % go)
            assert button.inner_text().strip() == ""
            assert button.locator("svg path").bounding_box()["width"] >= 6
        assert desktop.get_attribute("#record [aria-current]", "data-step") == "12"
        desktop.click('[data-go="first"]')
        shows(desktop, "#replay-at", "Step 0 of 12")
        assert desktop.evaluate("document.getElementById('record').scrollTop") == 0  # step 1 whole, at the top
        steps(desktop, 12)  # every step of the record stays listed ...
        assert desktop.locator("#record [aria-current]").count() == 0
        assert desktop.locator("#record li.ahead").count() == 12  # ... none of them played yet
        desktop.click('#record li[data-step="5"]')
        shows(desktop, "#replay-at", "Step 5 of 12")
        assert desktop.get_attribute("#record [aria-current]", "data-step") == "5"
        assert desktop.locator("#record li.ahead").count() == 7
        where = pieces(replay(lines[:6], read_board))
        expected = {str(s): len(stack) for s, stack in enumerate(where) if stack}
        desktop.wait_for_function("n => document.querySelectorAll('.piece').length === n", arg=len(expected))
        assert drawn_pieces(desktop) == expected  # the board as it stood after step 5


TARGETS = """() => [...document.querySelectorAll('button, a.button, .file, select, input, summary, #record li[tabindex]')]
    .map(e => e.closest('label.option') || e)
    .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
    .map(e => { const r = e.getBoundingClientRect(); return [e.id || e.textContent.trim(), r.width, r.height]; })"""


def small_targets(page):
    """What can be tapped on the page but is smaller than a finger (44 px)."""
    return [t for t in page.evaluate(TARGETS) if t[1] < 43.5 or t[2] < 43.5]


def in_view(page, selector):
    box = page.locator(selector).bounding_box()
    return box["y"] >= 0 and box["y"] + box["height"] <= PHONE["viewport"]["height"]


@pytest.mark.parametrize("game", ["detour", "sniggle", "mehen", "snuka"])
def test_on_a_phone_the_die_buttons_are_in_view_and_fit_a_finger(phone, game):
    with serving() as server:
        phone.goto(server.url)
        phone.wait_for_selector(".game")
        phone.click("summary")  # the rule options, with their checkboxes
        assert small_targets(phone) == []
        session = start(phone, server, game, ["human", "human"])
        assert in_view(phone, "#say")
        assert in_view(phone, '.press[data-button="0"]') and in_view(phone, '.press[data-button="1"]')
        if game == "mehen":
            assert in_view(phone, ".sticks")  # the throw shows beside the buttons
        elif game != "snuka":
            assert in_view(phone, ".roller svg >> nth=0")  # the die face beside its button
        assert phone.locator("#board").bounding_box()["y"] < PHONE["viewport"]["height"] / 2
        phone.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        assert in_view(phone, '.press[data-button="0"]')  # still in reach at the foot of the page
        assert small_targets(phone) == []
        assert phone.locator(".keys").evaluate_all("keys => keys.every(k => !k.getClientRects().length)")  # no keys on a phone
        assert not phone.locator(".press kbd").first.is_visible()
        assert phone.locator(".space").first.bounding_box()["width"] >= 24  # as wide as the board's columns allow
        kinds = session.rig.game.board.kinds
        for pocket in [s for s in range(len(kinds)) if kinds[s] == "pocket"]:  # Tiddlee Snuka's stand apart: a finger's size
            assert phone.locator('.space[data-space="%d"]' % pocket).bounding_box()["width"] >= 44


def test_on_a_phone_a_tap_anywhere_in_a_space_reaches_it(phone):
    with serving() as server:
        start(phone, server, "sniggle", ["human", "human"])
        space = phone.get_attribute(".piece >> nth=0", "data-piece")
        cell = phone.locator('.space[data-space="%s"]' % space).bounding_box()
        phone.mouse.click(cell["x"] + cell["width"] * 0.97, cell["y"] + cell["height"] / 2)  # beside the drawn tile
        phone.wait_for_selector("#hand .token")  # the piece standing there was lifted
        assert phone.locator(".piece text").first.bounding_box()["height"] >= 10  # a piece's number reads on a phone too


def test_make_live_on_a_phone_says_where_the_board_is_and_nothing_widens_the_page(phone):
    """Before any board answers the board's card says where it is looked for; after the board went away, a
    long word in the board's log and the reason wrap: the page stays 390 px wide."""
    follow, _ = following([])
    follow.port = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614c311b7e8f35-if00"
    live = LiveSession(follow)
    with serving() as server:
        server.follow_live(live)
        phone.goto(server.url)
        shows(phone, "#waiting", "Looking for the board on %s" % follow.port)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        follow._line(hello(len(STEPS)))
        for n, text in enumerate([HEADER] + STEPS):
            follow._line(line(n, text))
        follow._line(b"fault in tick: " + b"0123456789abcdef" * 12)  # the board's log: one long word
        follow._lost(serial.SerialException("device reports readiness to read but returned no data (device "
                                            "disconnected or multiple access on port?)"))
        shows(phone, "#say", "The board went away (the USB cable was pulled or the board restarted)")
        shows(phone, "#log", "0123456789abcdef" * 12)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        card = phone.locator(".board-card")
        assert card.locator(".space").count() > 0 and card.bounding_box()["height"] > 200  # the board as it was last


NAMES = """() => [...document.querySelectorAll('#board .names text')].filter(e => e.getClientRects().length)
    .map(e => e.textContent)"""


def test_the_spaces_names_are_drawn_on_request_and_while_the_keyboard_is_on_the_board(desktop):
    with serving() as server:
        start(desktop, server, "sniggle", ["human", "human"])
        ids = desktop.evaluate("() => [...document.querySelectorAll('#board .space')].map(g => g.dataset.id)")
        assert desktop.evaluate(NAMES) == []
        desktop.click("#names")
        assert desktop.evaluate(NAMES) == ids and desktop.get_attribute("#names", "aria-pressed") == "true"
        name = desktop.locator('#board .names text:text-is("SR1")').bounding_box()
        light = desktop.locator('.space[data-id="SR1"] [data-led]').bounding_box()
        assert name["height"] >= 10  # legible at a desktop's size of the board
        assert name["y"] + name["height"] < light["y"] + light["height"] / 2  # over the top of the space: the piece's ring shows
        assert desktop.locator('#board .names text:text-is("SR1")').evaluate(
            "e => [getComputedStyle(e).fill, getComputedStyle(e).stroke]") == ["rgb(255, 255, 255)", "rgb(11, 14, 17)"]
        desktop.reload()
        desktop.wait_for_selector("#board[data-frame]")
        assert desktop.evaluate(NAMES) == ids  # the choice is kept
        desktop.click("#names")
        assert desktop.evaluate(NAMES) == []
        desktop.click('.space[data-id="SR1"]')  # a click on the board is not the keyboard's
        assert desktop.evaluate(NAMES) == []
        desktop.focus("#names")
        desktop.keyboard.press("Tab")  # on to the board's first space
        assert desktop.evaluate("document.activeElement.closest('#board .space') !== null")
        assert desktop.evaluate(NAMES) == ids
        desktop.keyboard.press("ArrowRight")
        assert desktop.evaluate(NAMES) == ids
        desktop.focus("#names")  # off the board
        assert desktop.evaluate(NAMES) == []


@pytest.mark.parametrize("game", ["detour", "sniggle"])
def test_on_a_phone_the_board_zooms_to_spaces_a_finger_can_hit(phone, game):
    with serving() as server:
        start(phone, server, game, ["human", "human"])
        spaces = "() => Math.min(...[...document.querySelectorAll('#board .space')].map(g => g.getBoundingClientRect().width))"
        assert phone.evaluate(spaces) < 44
        phone.click("#zoom")
        assert phone.evaluate(spaces) >= 44
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # the board scrolls in its card, not the page
        if game == "sniggle":
            click_space(phone, "SR1")  # a tap still reaches a space, scrolled to
            phone.wait_for_selector("#hand .token")
        phone.click("#zoom")
        assert phone.evaluate(spaces) < 44 and phone.get_attribute("#zoom", "aria-pressed") == "false"


def test_a_wide_board_fills_its_card_without_empty_bands(desktop):
    with serving() as server:
        start(desktop, server, "snuka", ["human", "human"])
        board = desktop.locator("#board").bounding_box()
        cloth = desktop.locator("#board > rect >> nth=0").bounding_box()
        assert abs(board["height"] - cloth["height"]) < 2 and abs(board["width"] - cloth["width"]) < 2


def screenshot(page, name):
    """Write the README's screenshot ``name``, unless the file shows the same
    picture already (the rounding of a few edges differs from run to run).
    The pause that holds the lights still is not shown: a player sees them
    so while the board plays."""
    page.wait_for_timeout(500)  # a wheel's turn and a pressed button's spring settle
    shot = page.screenshot(animations="disabled", style="#paused-tag, #pause { display: none !important; }")
    path = os.path.join(ROOT, SHOTS, name)
    if not (os.path.exists(path) and looks_the_same(page, open(path, "rb").read(), shot)):
        with open(path, "wb") as f:
            f.write(shot)
    with open(os.path.join(ROOT, "README.md")) as f:
        assert "%s/%s" % (SHOTS, name) in f.read()  # the README shows it


def test_the_readme_screenshots(browser):
    with serving(urandom=Bytes(DETOUR_DICE)) as server:
        for page in opened(browser, DESKTOP):
            session = detour_after_the_first_roll(page, server)
            click_space(page, "a4")  # lifted: where it may go lights white
            shows(page, "#say", "put the piece down")
            hold_still(page, session, at=C.BREATHE_MS // 2)  # the pieces that may move at their brightest
            screenshot(page, "desktop-detour.png")
    with serving(urandom=Bytes([3])) as server:  # sticks: two flat sides, a throw of 2
        for page in opened(browser, PHONE):
            session = start(page, server, "mehen", ["human", "human"])
            press(page, 0)
            steps(page, 1)
            shows(page, "#say", "lift a glowing piece")
            hold_still(page, session, at=C.BREATHE_MS // 2)  # the pieces that may move at their brightest
            screenshot(page, "phone-mehen.png")
