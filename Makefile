# Electronic board-game controller. `make help` lists the targets.
# Everything it needs is set up on first use: a Python virtualenv in .venv and
# the node packages (MicroPython compiled to WebAssembly) in node_modules.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SEED ?= 1
PLAYERS ?= 2
GAME ?= detour
SEATS ?= random
OPTIONS ?=

# the dependencies pyproject.toml lists (the project itself is not installed:
# its code runs from this folder, as it does on the Pico)
export DEPS := import tomllib; p = tomllib.load(open("pyproject.toml", "rb"))["project"]; print(" ".join(p["dependencies"] + p["optional-dependencies"]["dev"]))
export STUBS := import tomllib; p = tomllib.load(open("pyproject.toml", "rb"))["project"]; print(*[d for d in p["optional-dependencies"]["dev"] if "stubs" in d])

.PHONY: help setup test check sim play watch replay bench bench-check calibrate fuzz strength build flash repl bringup live pull vpico wiring hardware clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'
	@echo "  make watch variables: GAME=$(GAME) SEED=$(SEED) PLAYERS=$(PLAYERS) SEATS=search,random OPTIONS='pieces=4 half_turns=true' SPEED=slow|normal|fast|instant|step RECORD=game.jsonl"

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet $$($(PY) -c "$$DEPS")
	touch $@

node_modules/.installed: package.json package-lock.json
	@command -v node >/dev/null || { echo "error: node (Node.js 20 or newer) is needed for the tests, make vpico and the MicroPython gate (the firmware run under the real MicroPython): install it (Debian: apt install nodejs npm), then make setup" >&2; exit 1; }
	npm ci --silent --no-audit --no-fund
	touch $@

# MicroPython's stubs for the type check, kept apart from .venv (see pyproject.toml)
.stubs/.installed: pyproject.toml $(VENV)/.installed
	rm -rf .stubs
	$(PY) -m pip install --quiet --target .stubs $$($(PY) -c "$$STUBS")
	touch $@

setup: $(VENV)/.installed node_modules/.installed .stubs/.installed ## create .venv and install the Python and node dependencies

test: setup ## run every check: mpy-cross, the MicroPython gate, the type check, the pytest suite
	$(PY) -m pytest

check: $(VENV)/.installed ## the quick loop while changing code: the rules and app tests on CPython, in seconds
	$(PY) -m pytest tests/shared

# whether a variable was given on the command line or in the environment (not a default here)
given = $(filter command line environment,$(origin $(1)))

play: $(VENV)/.installed ## play on a simulated board in the terminal: the real controller, you at the keys (GAME=, PLAYERS=, SEATS=human,search, OPTIONS=, SPEED=, RECORD=, PLAIN=1)
	$(PY) -m host.sim.terminal $(if $(call given,GAME),--game $(GAME)) $(if $(call given,PLAYERS),--players $(PLAYERS)) $(if $(call given,SEATS),--seats $(SEATS)) $(foreach o,$(OPTIONS),--option $(o)) $(if $(SPEED),--speed $(SPEED)) $(if $(RECORD),--record $(RECORD)) $(if $(PLAIN),--plain)

watch: $(VENV)/.installed ## watch computer players play a game on the simulated board in the terminal (GAME=, SEED=, PLAYERS=, SEATS=, OPTIONS=, SPEED=, RECORD=, PLAIN=1)
	$(PY) -m host.sim.terminal --auto --game $(GAME) --seed $(SEED) --players $(PLAYERS) --seats $(SEATS) $(foreach o,$(OPTIONS),--option $(o)) $(if $(SPEED),--speed $(SPEED)) $(if $(RECORD),--record $(RECORD)) $(if $(PLAIN),--plain)

sim: $(VENV)/.installed ## the board in a browser: open the address it prints (PORT=8000)
	$(PY) -m host.sim.web --port $(or $(PORT),8000)

replay: $(VENV)/.installed ## replay a game record, each step in words and the board as it ends: make replay FILE=game.jsonl
	@test -n "$(FILE)" || { echo "usage: make replay FILE=game.jsonl" >&2; exit 2; }
	$(PY) -m host.replay $(FILE)

bench: setup ## measure the budgets of docs/budgets.md (press to pixel, loop, heap, boot, hint, LED encode, ...) on CPython, WebAssembly and the emulated Pico (one to two hours)
	$(PY) -m host.bench

bench-check: setup ## like bench, and fail when a figure is over its budget (docs/budgets.md: the Pico's figures)
	$(PY) -m host.bench --check

calibrate: $(VENV)/.installed node_modules/.installed ## the emulated Pico against silicon: perfbench gains of vm/gc/parse in SRAM beside upstream's (SRAM=uf2 MPY_DIR=micropython-1.28.0 [PLAIN=uf2]; hardware/calibration.md)
	$(PY) -m host.pico.vpico.calibrate $(if $(SRAM),--sram $(SRAM)) $(if $(MPY_DIR),--mpy-dir $(MPY_DIR)) $(if $(PLAIN),--plain $(PLAIN))

fuzz: $(VENV)/.installed node_modules/.installed ## hostile files and requests, power cuts (here and on the emulated Pico) at length: one figure line per campaign, every failure figure 0 (CASES=, SEED=, ONLY=)
	$(PY) -m host.fuzz $(if $(CASES),--cases $(CASES)) --seed $(SEED) $(if $(ONLY),--only $(ONLY))

strength: $(VENV)/.installed ## the computer players against each other: win rates with 95% intervals (GAME=, GAMES=1000, NODES=300, PAIRS='search-greedy')
	$(PY) -m host.bench.strength $(if $(call given,GAME),$(foreach g,$(GAME),--game $(g))) $(if $(GAMES),--games $(GAMES)) $(if $(NODES),--nodes $(NODES)) $(foreach p,$(PAIRS),--pairing $(p))

build: $(VENV)/.installed ## compile firmware/ for the Pico into build/, print the sizes (BOARD=detour picks the board, LED_MA=1800 the pixels' current budget)
	$(PY) -m host.pico.build $(if $(BOARD),--board $(BOARD)) $(if $(LED_MA),--led-ma $(LED_MA))

flash: build ## check the Pico's MicroPython, put build/ on it with mpremote and reset it (PORT=/dev/ttyACM0; FRESH=1 wipes the saved game too)
	$(PY) -m host.pico.build flash $(if $(PORT),--port $(PORT)) $(if $(filter 1 yes true,$(FRESH)),--fresh)

repl: $(VENV)/.installed ## open the Pico's REPL (PORT=; Ctrl-] leaves)
	$(PY) -m host.pico.build repl $(if $(PORT),--port $(PORT))

bringup: $(VENV)/.installed ## a freshly soldered board: light each pixel in turn and name its space, then name every input as it changes (PORT=, STEP_MS=500; after make flash; hardware/flashing.md)
	$(PY) -m host.pico.build bringup $(if $(PORT),--port $(PORT)) $(if $(STEP_MS),--step-ms $(STEP_MS))

live: $(VENV)/.installed ## the board on USB in a browser, live and read-only: open the address it prints (PORT=/dev/ttyACM0, WEB_PORT=8000)
	$(PY) -m host.pico.live $(if $(PORT),--port $(PORT)) --web-port $(or $(WEB_PORT),8000)

pull: $(VENV)/.installed ## copy the board's game record and save to this folder, for python -m host.replay (PORT=, OUT=.)
	$(PY) -m host.pico.live --pull $(if $(PORT),--port $(PORT)) --out $(or $(OUT),.)

vpico: $(VENV)/.installed node_modules/.installed ## the real MicroPython on an emulated Pico and board, played in the browser page it prints; its port takes make flash PORT= and mpremote meanwhile (WEB_PORT=8000, BOARD=, FS=image, FLASH_TIMES=max)
	$(PY) -m host.pico.vpico --web-port $(or $(WEB_PORT),8000) $(if $(BOARD),--board $(BOARD)) $(if $(FS),--fs $(FS)) $(if $(FLASH_TIMES),--flash-times $(FLASH_TIMES))

wiring: $(VENV)/.installed ## draw the wiring picture of every board, hardware/wiring-<board>.svg, from hardware/pins.json and the board file
	$(PY) -m host.hardware.wiring

hardware: $(VENV)/.installed ## the magnet check of every board (worst case, where, margin; 1.5x wanted), the pocket beams' light and the power path in ngspice, from hardware/parts.json and the board files
	$(PY) -m host.hardware.fields
	$(PY) -m host.hardware.beams
	$(PY) -m host.hardware.power

clean: ## remove the virtualenv, node packages, caches, build/ and the emulated Pico's files (.vpico/)
	rm -rf $(VENV) node_modules .stubs .pytest_cache .hypothesis build .vpico
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
