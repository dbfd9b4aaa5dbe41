// The emulated CircuitPython Pico: CircuitPython's raspberry_pi_pico image on rp2040js (the
// rp2 harness's emulator), with what it needs of a model beyond MicroPython's (docs/
// circuitpython.md): the QSPI SS pad read high at boot, pull-ups on the I2C pins and an ACK of
// the address byte at pin level (CircuitPython probes the display with a bit-banged write),
// its CIRCUITPY FAT drive in a host file. Started by emu.py with a JSON config (argv[2]) and
// the USB wire's fd; speaks the rp2 harness's JSON lines, a subset of them:
//   {"op": "play", "steps": [[pad, gpio, hold_ms, gap_ms], ...]} -> {"ev": "played", ...}
//   {"op": "stop"} -> {"ev": "off"}, flash saved   {"op": "stats"} / {"op": "frame"} / {"op": "vsys"}
// and {"ev": "usb"} once the PC's side of USB is configured.
import fs from 'node:fs';
import net from 'node:net';
import readline from 'node:readline';
import { GPIOPinState, Simulator, USBCDC } from '../rp2/node_modules/rp2040js/dist/esm/index.js';
import { Panel } from '../rp2/panel.mjs';

const NS_PER_CYCLE = 8; // 125 MHz
const FLASH_BASE = 0x10000000;

const cfg = JSON.parse(process.argv[2]);
const sim = new Simulator();
const { clock, rp2040: mcu } = sim;
mcu.loadBootrom(new Uint32Array(new Uint8Array(fs.readFileSync(cfg.bootrom)).buffer));
mcu.logger = { debug() {}, info() {}, warn() {}, error() {} };
const uf2 = fs.readFileSync(cfg.uf2);
for (let off = 0; off + 512 <= uf2.length; off += 512) {
  const b = uf2.subarray(off, off + 512);
  if (b.readUInt32LE(0) !== 0x0a324655 || b.readUInt32LE(4) !== 0x9e5d5157) throw new Error('not a UF2 block');
  mcu.flash.set(b.subarray(32, 32 + b.readUInt32LE(16)), b.readUInt32LE(12) - FLASH_BASE);
}
mcu.core.PC = FLASH_BASE; // the image's second-stage loader, as the rp2 harness starts
const fsRegion = () => mcu.flash.subarray(cfg.fs_offset, cfg.fs_offset + cfg.fs_size);
if (fs.existsSync(cfg.flash)) fsRegion().set(fs.readFileSync(cfg.flash).subarray(0, cfg.fs_size));
// CircuitPython reads the BOOTSEL button on the QSPI SS pad at boot (port_boot_button_pressed)
// and waits while it reads low: rp2040js resets the pad with its input off. The chip's reset
// value is 0x5a (input enabled, pulled up); the pin then reads high, the button not pressed.
mcu.qspi[1].padValue = 0x5a;
mcu.qspi[1].setInputValue(true);

// Flash writes: the ROM's flash_range_erase and flash_range_program become breakpoints
// serviced here, as in the rp2 harness (NOR: a program only clears bits).
const rom16 = new Uint16Array(mcu.bootrom.buffer);
function romFunction(code) {
  const c = code.charCodeAt(0) | (code.charCodeAt(1) << 8);
  for (let p = rom16[0x14 / 2] / 2; rom16[p]; p += 2) if (rom16[p] === c) return rom16[p + 1] & ~1;
  throw new Error('no ROM function ' + code);
}
rom16[romFunction('RE') / 2] = 0xbe01;
rom16[romFunction('RP') / 2] = 0xbe02;
const flashlog = [];
mcu.onBreak = (code) => {
  const r = mcu.core.registers;
  const cycles = Math.round(clock.nanos / NS_PER_CYCLE);
  if (code === 1) {
    mcu.flash.fill(0xff, r[0], r[0] + r[1]);
    flashlog.push([cycles, 'erase', r[0], r[1]]);
  } else if (code === 2) {
    for (let i = 0; i < r[2]; i++) mcu.flash[r[0] + i] &= mcu.readUint8(r[1] + i);
    flashlog.push([cycles, 'program', r[0], r[2]]);
  } else {
    throw new Error('breakpoint ' + code + ' at ' + mcu.core.PC.toString(16));
  }
  mcu.core.PC = r[14] & ~1;
};

// The display on the I2C block, at the transaction level (panel.mjs).
const panel = new Panel(cfg.panel, cfg.panel_addr, cfg.i2c_hz);
const i2c = mcu.i2c[cfg.i2c_bus];
panel.attach(i2c, clock);
let shown = null; // every picture while keys play, as the rp2 harness keeps them
const i2cStop = i2c.onStop;
i2c.onStop = () => {
  i2cStop();
  if (!shown) return;
  const f = hex(panel.frame());
  if (f !== shown[shown.length - 1]) shown.push(f);
};

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

// Keys: the 4x4 matrix (the held key's column reads low while its row is driven low) and the
// six buttons to GND; keypad.KeyMatrix scans them with the CPU.
let held = null;
function keysUpdate() {
  cfg.cols.forEach((g, c) => {
    let low = false;
    if (held && held.pad != null && held.pad % 4 === c) {
      low = mcu.gpio[cfg.rows[Math.floor(held.pad / 4)]].value === GPIOPinState.Low;
    }
    mcu.gpio[g].setInputValue(!low);
  });
  for (const g of cfg.buttons) mcu.gpio[g].setInputValue(!(held && held.gpio === g));
}
for (const g of cfg.rows) mcu.gpio[g].addListener(keysUpdate);
keysUpdate();

// Power: VSYS through the Pico's divider of 3 on ADC3, VBUS sense on GP24.
function vsys(mv) {
  mcu.adc.channelValues[3] = Math.min(4095, Math.round(((mv / 3) * 4096) / 3300));
}
vsys(cfg.vsys_mv);
mcu.gpio[cfg.vbus_gpio].setInputValue(cfg.vbus);

// USB: the CDC port whose endpoints rp2040js's host finds (the last CDC data interface of
// the configuration) on the pty; the PC side's reads wait until it has data.
const cdc = new USBCDC(mcu.usbCtrl);
const inbox = [];
let pendingRead = null;
const usbRead = mcu.usbCtrl.onEndpointRead;
mcu.usbCtrl.onEndpointRead = (ep, size) => {
  if (ep === cdc.outEndpoint && cdc.txFIFO.empty) pendingRead = [ep, size];
  else usbRead(ep, size);
};
function feed() {
  while (inbox.length && !cdc.txFIFO.full) cdc.sendSerialByte(inbox.shift());
  if (pendingRead && !cdc.txFIFO.empty) {
    const [ep, size] = pendingRead;
    pendingRead = null;
    usbRead(ep, size);
  }
  if (usb.isPaused() && inbox.length < 4096) usb.resume();
}
const usb = new net.Socket({ fd: cfg.usb_fd, readable: true, writable: true });
usb.on('data', (chunk) => {
  for (const b of chunk) inbox.push(b);
  if (inbox.length > 65536) usb.pause();
  wake();
});
usb.on('error', () => {});
cdc.onDeviceConnected = () => send({ ev: 'usb' });
cdc.onSerialData = (buf) => usb.write(Buffer.from(buf));

function send(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}
const hex = (a) => Buffer.from(a).toString('hex');
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.op === 'stop') powerOff();
  else if (m.op === 'stats') send({ ev: 'stats', ...stats() });
  else if (m.op === 'frame') send({ ev: 'frame', frame: hex(panel.frame()), on: panel.on });
  else if (m.op === 'flashlog') send({ ev: 'flashlog', log: flashlog });
  else if (m.op === 'vsys') vsys(m.mv);
  else if (m.op === 'play') startPlay(m.steps);
  wake();
});
process.stdin.on('end', () => powerOff());
process.on('SIGINT', () => {});

function stats() {
  return {
    cycles: Math.round(clock.nanos / NS_PER_CYCLE),
    panel_bytes: panel.bytes,
    panel_writes: panel.writes,
    on: panel.on,
    panel_lit: panel.lit(),
    panel_unknown: panel.unknown,
    address_acks: probe.acks,
  };
}

// Key steps in emulated time: press, hold, release, gap; the frame after each gap.
const keyAlarm = clock.createAlarm(() => play && play.next());
let play = null;
function startPlay(steps) {
  const out = { frames: [], press_ns: [], frame_ns: [], shown: [hex(panel.frame())] };
  shown = out.shown;
  let i = 0;
  let phase = 0;
  play = {
    next() {
      if (phase === 1) {
        held = null;
        keysUpdate();
        phase = 2;
        keyAlarm.schedule(steps[i][3] * 1e6);
        return;
      }
      if (phase === 2) {
        out.frames.push(hex(panel.frame()));
        out.frame_ns.push(panel.lastWrite);
        i++;
      }
      if (i >= steps.length) {
        play = null;
        shown = null;
        send({ ev: 'played', ...out, ...stats() });
        return;
      }
      const [pad, gpio, hold] = steps[i];
      held = pad == null && gpio == null ? null : { pad, gpio };
      keysUpdate();
      out.press_ns.push(clock.nanos);
      phase = 1;
      keyAlarm.schedule(hold * 1e6);
    },
  };
  play.next();
}

function powerOff() {
  fs.writeFileSync(cfg.flash, fsRegion());
  send({ ev: 'off', ...stats() });
  process.exit(0);
}

// The CPU in slices, servicing USB and the control channel between them; a core waiting for
// an interrupt jumps to the next alarm, and with none waits for the PC.
let sleeping = null;
function wake() {
  if (sleeping) {
    clearTimeout(sleeping);
    sleeping = null;
    setImmediate(run);
  }
}
function run() {
  const core = mcu.core;
  const end = performance.now() + 25;
  while (performance.now() < end) {
    for (let i = 0; i < 50000; i++) {
      if (core.waiting) {
        const n = clock.nanosToNextAlarm;
        if (n <= 0) break;
        clock.tick(n);
      } else {
        clock.tick(core.executeInstruction() * NS_PER_CYCLE);
      }
    }
    feed();
    if (core.waiting && clock.nanosToNextAlarm <= 0) {
      sleeping = setTimeout(() => ((sleeping = null), run()), 5);
      return;
    }
  }
  setImmediate(run);
}
run();
