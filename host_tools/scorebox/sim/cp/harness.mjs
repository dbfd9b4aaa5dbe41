// The emulated CircuitPython Pico: CircuitPython's raspberry_pi_pico image on rp2040js, on the
// board the MicroPython harness models (sim/rp2/board.mjs), with what it needs of a model
// beyond MicroPython's (docs/circuitpython.md): the QSPI SS pad read high at boot, pull-ups on
// the I2C pins and an ACK of the address byte at pin level (CircuitPython probes the display
// with a bit-banged write), its CIRCUITPY FAT drive in a host file (the config's flash and
// fs_offset). Started by emu.py with a JSON config (argv[2]) and the USB wire's fd; speaks the
// rp2 harness's JSON lines, a subset of them:
//   {"op": "play", "steps": [[pad, gpio, hold_ms, gap_ms], ...]} -> {"ev": "played", ...}
//   {"op": "run"} power on (when started paused: cfg.paused, then it runs only while keys play)
//   {"op": "stop"} -> {"ev": "off"}, flash saved   {"op": "stats"} / {"op": "frame"} / {"op": "vsys"}
// and {"ev": "usb"} once the PC's side of USB is configured.
import { Board, GPIOPinState } from '../rp2/board.mjs';
import { traceFlash } from './flashtrace.mjs';
import { dataPort } from './usbdata.mjs';

const cfg = JSON.parse(process.argv[2]);
const board = new Board(cfg);
const { mcu } = board;
// CircuitPython reads the BOOTSEL button on the QSPI SS pad at boot (port_boot_button_pressed)
// and waits while it reads low: rp2040js resets the pad with its input off. The chip's reset
// value is 0x5a (input enabled, pulled up); the pin then reads high, the button not pressed.
mcu.qspi[1].padValue = 0x5a;
mcu.qspi[1].setInputValue(true);

// The I2C lines at pin level, for what CircuitPython does with the pins as GPIOs: busio.I2C
// reads both lines high through the pull-ups, and a probe (I2CDisplayBus, scan()) is a
// zero-length write bit-banged on them that the I2C block never sees. A line is low while a
// pin drives it low; the panel answers its address byte by pulling SDA low for the ACK.
const sda = mcu.gpio[cfg.i2c_sda];
const scl = mcu.gpio[cfg.i2c_scl];
sda.setInputValue(true);
scl.setInputValue(true);
const probe = { sda: true, scl: true, bits: -1, byte: 0, ack: false };
probe.acks = 0; // address bytes answered (stats)
function i2cPins() {
  const d = sda.value !== GPIOPinState.Low;
  const c = scl.value !== GPIOPinState.Low;
  if (c && probe.scl && d !== probe.sda) {
    probe.bits = d ? -1 : 0; // SDA falls while SCL is high: a START; rises: a STOP
    probe.byte = 0;
  } else if (c && !probe.scl && probe.bits >= 0 && probe.bits < 8) {
    probe.byte = (probe.byte << 1) | (d ? 1 : 0); // a bit is read on SCL's rising edge
    probe.bits++;
  } else if (!c && probe.scl && probe.bits === 8) {
    probe.ack = probe.byte >> 1 === cfg.panel_addr;
    if (probe.ack) probe.acks++;
    sda.setInputValue(!probe.ack); // the ninth clock: ACK (low) or NACK
    probe.bits = 9;
  } else if (!c && probe.scl && probe.bits === 9) {
    sda.setInputValue(true); // released after the ninth clock; data bytes are not answered
    probe.bits = -1;
  }
  probe.sda = d;
  probe.scl = c;
}
sda.addListener(i2cPins);
scl.addListener(i2cPins);
board.moreStats = () => ({ address_acks: probe.acks });

// WFI with an interrupt already pending returns at once on the ARM, PRIMASK set or not.
// CircuitPython idles so (port_idle_until_interrupt: interrupts off, a last check, WFI, on
// again), and a tick raised between the check and the WFI is pending before it: rp2040js's WFI
// waited regardless, and the box froze for good (time.sleep never returned) at a moment that
// moved with the timing of what ran before.
const core = mcu.core;
const execute = core.executeInstruction.bind(core);
core.executeInstruction = () => {
  const cycles = execute();
  if (core.waiting && core.pendingInterrupts & core.enabledInterrupts) core.waiting = false;
  return cycles;
};
if (cfg.flash_trace) traceFlash(board, cfg.flash_trace); // every flash write, for power cuts (tests/cp)

dataPort(board); // usb_cdc.data on the second pty, once boot.py enables it
// Powered at once, or (cfg.paused) only while keys play, as MicroPython's harness: idle, the
// run loop leaps from alarm to alarm as fast as the PC's next request comes, so emulated time
// between two plays would depend on the PC's speed; paused, every run's cycles are the same.
board.running = !cfg.paused;
board.played = () => {
  if (cfg.paused) board.running = false;
};
function powerOn() {
  if (board.running) return;
  board.running = true;
  board.run();
}
board.listen({ play: (m) => (board.play(m.steps), powerOn()), run: powerOn });
if (board.running) board.run();
