// The memory the virtual Pico's bridge (host/vpico.mjs) and its CPU
// (host/vpico_worker.mjs) share: the serial input ring, the GPIO levels and
// the piece-sensor inputs. Shared memory, not messages, because the CPU
// thread is busy running Python and reads its input synchronously.

export const RING_SIZE = 1 << 16; // serial bytes from the host not yet read by the device
export const GPIO_COUNT = 30; // GP0-GP29
export const SENSOR_COUNT = 512; // 64 chained 74HC165s

// Int32 slots of the control block
export const W = 0; // bytes written into the ring so far (by the bridge), wrapping
export const R = 1; // bytes taken out of the ring so far (by the device), wrapping
export const BOOTSEL = 2; // 1 while the BOOTSEL button is held
export const PIN_IN = 8; // + gpio: level driven from outside: 0 or 1, -1 none, UNTOUCHED
export const UNTOUCHED = -2; // never driven from outside: none, but a wheel contact starts closed
export const PIN_OUT = PIN_IN + GPIO_COUNT; // + gpio: level the device drives: -1 never set
export const PIN_MODE = PIN_OUT + GPIO_COUNT; // + gpio: machine.Pin mode, -1 unused
export const PIN_PULL = PIN_MODE + GPIO_COUNT; // + gpio: 0 none, 1 PULL_UP, 2 PULL_DOWN
export const PIN_WRITES = PIN_PULL + GPIO_COUNT; // + gpio: how many times the device wrote it
const CTL_SIZE = PIN_WRITES + GPIO_COUNT;

export function sharedState() {
  const ctl = new Int32Array(new SharedArrayBuffer(4 * CTL_SIZE));
  for (let g = 0; g < GPIO_COUNT; g++) {
    ctl[PIN_IN + g] = UNTOUCHED;
    ctl[PIN_OUT + g] = -1;
    ctl[PIN_MODE + g] = -1;
  }
  const sensors = new Uint8Array(new SharedArrayBuffer(SENSOR_COUNT));
  sensors.fill(1); // open switch, pulled up: no piece
  return { ctl, ring: new Uint8Array(new SharedArrayBuffer(RING_SIZE)), sensors };
}
