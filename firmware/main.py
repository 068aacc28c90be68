# Runs at every start of the Pico: the board's game (app/device.py). Kept
# small, as MicroPython compiles this one file from source at every boot.
try:
    from app.device import run
except ImportError as err:
    print("the firmware on this Pico is incomplete (%s): run make flash" % err)
else:
    run()
