// The emulated Pico's board, shared by both harnesses (MicroPython's harness.mjs beside this,
// CircuitPython's sim/cp/harness.mjs): rp2040js with the UF2 image, the file system region from
// its host file, the ROM's flash writes serviced on the flash array, the display, the keys,
// VSYS/VBUS, USB CDC on the driver's socket, the control channel and the run loop. A harness
// adds its own models through the hooks set in the constructor and its own ops to listen().
import fs from 'node:fs';
import net from 'node:net';
import readline from 'node:readline';
import { GPIOPinState, Simulator, USBCDC } from 'rp2040js';
import { Panel } from './panel.mjs';

export { GPIOPinState };
export const NS_PER_CYCLE = 8; // 125 MHz
const FLASH_BASE = 0x10000000;
const BK_ERASE = 1;
const BK_PROGRAM = 2;
const IN_PACKET_NS = 1e6 / 19; // a full-speed bulk IN packet's time on the bus (paceIn)

export const hex = (a) => Buffer.from(a).toString('hex');

function loadUF2(path, flash) {
  const data = fs.readFileSync(path);
  for (let off = 0; off + 512 <= data.length; off += 512) {
    const b = data.subarray(off, off + 512);
    if (b.readUInt32LE(0) !== 0x0a324655 || b.readUInt32LE(4) !== 0x9e5d5157) throw new Error('not a UF2 block');
    const addr = b.readUInt32LE(12);
    const size = b.readUInt32LE(16);
    flash.set(b.subarray(32, 32 + size), addr - FLASH_BASE);
  }
}

// The boot ROM's function table (a 16-bit pointer at 0x14; pairs of code, address).
function romFunction(rom16, code) {
  const c = code.charCodeAt(0) | (code.charCodeAt(1) << 8);
  for (let p = rom16[0x14 / 2] / 2; rom16[p]; p += 2) {
    if (rom16[p] === c) return rom16[p + 1] & ~1;
  }
  throw new Error('no ROM function ' + code);
}

export class Board {
  // cfg: the driver's config (emu.py): bootrom, uf2, flash (the host file of the file system
  // region fs_offset, fs_size), panel, panel_addr, i2c_hz, i2c_bus, rows, cols, buttons,
  // vsys_mv, vbus_gpio, vbus, usb_fd.
  constructor(cfg) {
    this.cfg = cfg;
    // The hooks: before the keys' pins are set (sampleKeys), after a played key changed them
    // (keysChanged), at a flash operation's cycle before it and with its kind and bytes after
    // it (beforeFlash, afterFlash), at the end of a play before its answer (played), and what
    // a harness adds to stats() (moreStats).
    this.sampleKeys = this.keysChanged = this.beforeFlash = this.afterFlash = this.played = () => {};
    this.moreStats = () => ({});
    // The run loop's state: a power cut's time, powered, cycles by program counter (a Map) or null.
    this.cutNanos = Infinity;
    this.running = true;
    this.prof = null;
    this.sleeping = null; // the timer that runs the CPU again while it waits for the PC

    // rp2040js's RP2040 and clock; the run loop is ours (run() below).
    const { clock, rp2040: mcu } = new Simulator();
    this.clock = clock;
    this.mcu = mcu;
    mcu.loadBootrom(new Uint32Array(new Uint8Array(fs.readFileSync(cfg.bootrom)).buffer));
    mcu.logger = { debug() {}, info() {}, warn() {}, error() {} };
    loadUF2(cfg.uf2, mcu.flash);
    // Start at the image's second-stage loader, as rp2040js's MicroPython demo does: the ROM's
    // own reset path waits for things rp2040js does not model. The ROM's functions are used.
    mcu.core.PC = FLASH_BASE;
    if (fs.existsSync(cfg.flash)) this.fsRegion().set(fs.readFileSync(cfg.flash).subarray(0, cfg.fs_size));
    this.flashWrites();
    this.display();
    this.keys();
    // Power: VSYS through the Pico's divider of 3 on ADC3 (12 bits of 3.266 V), VBUS sense on GP24.
    this.vsys(cfg.vsys_mv);
    mcu.gpio[cfg.vbus_gpio].setInputValue(cfg.vbus);
    this.usbRelay();
    this.playing = null; // the next step of the keys playing
    this.idleLimit = () => Infinity; // how far a waiting core may jump (run()): a harness's
    this.keyAlarm = clock.createAlarm(() => this.playing && this.playing());
  }

  fsRegion() {
    return this.mcu.flash.subarray(this.cfg.fs_offset, this.cfg.fs_offset + this.cfg.fs_size);
  }

  cycles() {
    return Math.round(this.clock.nanos / NS_PER_CYCLE);
  }

  // Flash writes: rp2040js cannot erase or program its flash, so the ROM's flash_range_erase
  // and flash_range_program become breakpoints serviced here on the flash array (NOR: a
  // program can only clear bits).
  flashWrites() {
    const mcu = this.mcu;
    const rom16 = new Uint16Array(mcu.bootrom.buffer);
    rom16[romFunction(rom16, 'RE') / 2] = 0xbe00 | BK_ERASE;
    rom16[romFunction(rom16, 'RP') / 2] = 0xbe00 | BK_PROGRAM;
    this.flashlog = [];
    mcu.onBreak = (code) => {
      const r = mcu.core.registers;
      const cycles = this.cycles();
      this.beforeFlash(cycles);
      if (code === BK_ERASE) {
        mcu.flash.fill(0xff, r[0], r[0] + r[1]);
        this.flashlog.push([cycles, 'erase', r[0], r[1]]);
        this.afterFlash('erase', r[1]);
      } else if (code === BK_PROGRAM) {
        for (let i = 0; i < r[2]; i++) mcu.flash[r[0] + i] &= mcu.readUint8(r[1] + i);
        this.flashlog.push([cycles, 'program', r[0], r[2]]);
        this.afterFlash('program', r[2]);
      } else {
        throw new Error('breakpoint ' + code + ' at ' + mcu.core.PC.toString(16));
      }
      mcu.core.PC = r[14] & ~1; // return from the ROM function
    };
  }

  // The display on the I2C block at the pins.py address, at the transaction level (panel.mjs).
  // Every picture it showed while keys play, in order: its RAM after each transfer that changed
  // it. The same keys give the same pictures however long the box took over them.
  display() {
    const cfg = this.cfg;
    const i2c = this.mcu.i2c[cfg.i2c_bus];
    this.panel = new Panel(cfg.panel, cfg.panel_addr, cfg.i2c_hz);
    this.panel.attach(i2c, this.clock);
    this.shown = null;
    const i2cStop = i2c.onStop;
    i2c.onStop = () => {
      i2cStop();
      if (!this.shown) return;
      const f = hex(this.panel.frame());
      if (f !== this.shown[this.shown.length - 1]) this.shown.push(f);
    };
  }

  // Keys: the 4x4 matrix (rows driven low one at a time; the held key's column reads low
  // while its row is low) and the six buttons to GND.
  keys() {
    const { cfg, mcu } = this;
    this.held = null; // {pad: index} or {gpio: n}
    const update = () => this.keysUpdate();
    for (const g of cfg.rows) mcu.gpio[g].addListener(update);
    this.keysUpdate();
  }

  keysUpdate() {
    const { cfg, mcu, held } = this;
    this.sampleKeys();
    cfg.cols.forEach((g, c) => {
      let low = false;
      if (held && held.pad != null && held.pad % 4 === c) {
        low = mcu.gpio[cfg.rows[Math.floor(held.pad / 4)]].value === GPIOPinState.Low;
      }
      mcu.gpio[g].setInputValue(!low);
    });
    for (const g of cfg.buttons) mcu.gpio[g].setInputValue(!(held && held.gpio === g));
  }

  vsys(mv) {
    // The ADC's reference: the 3.3 V rail less the ~34 mV its own current drops across the
    // Pico's 200 Ohm filter (boards/pico.py, ADC_REF_MV), as on a real Pico.
    this.mcu.adc.channelValues[3] = Math.min(4095, Math.round(((mv / 3) * 4096) / 3266));
  }

  // USB CDC on the driver's socket (the PC's pty), the port whose endpoints rp2040js's host
  // finds (the last CDC data interface). The PC side's reads wait (as a host's NAKs do) until
  // it has data.
  usbRelay() {
    const usbCtrl = this.mcu.usbCtrl;
    const cdc = new USBCDC(usbCtrl);
    const inbox = [];
    let pendingRead = null;
    const usbRead = usbCtrl.onEndpointRead;
    usbCtrl.onEndpointRead = (ep, size) => {
      if (ep === cdc.outEndpoint && cdc.txFIFO.empty) pendingRead = [ep, size];
      else usbRead(ep, size);
    };
    this.feed = () => {
      while (inbox.length && !cdc.txFIFO.full) cdc.sendSerialByte(inbox.shift());
      if (pendingRead && !cdc.txFIFO.empty) {
        const [ep, size] = pendingRead;
        pendingRead = null;
        usbRead(ep, size);
      }
      if (usb.isPaused() && inbox.length < 4096) usb.resume();
    };
    const usb = new net.Socket({ fd: this.cfg.usb_fd, readable: true, writable: true });
    usb.on('data', (chunk) => {
      for (const b of chunk) inbox.push(b);
      if (inbox.length > 65536) usb.pause();
      this.wake();
    });
    usb.on('error', () => {}); // the PC closed its side: a cable pulled out
    cdc.onDeviceConnected = () => this.send({ ev: 'usb' });
    cdc.onSerialData = (buf) => usb.write(Buffer.from(buf));
    this.cdc = cdc;
    this.usb = usb;
  }

  // Full speed: a bulk IN packet of 64 bytes completes no sooner than the bus can carry it, at
  // most 19 per 1 ms frame (1.2 MB/s; rp2040js completes a transfer at once otherwise). The
  // firmware's next packet waits for the completion, as on a Pico. paced(endpoint): whether
  // an IN endpoint is so paced; all of them share the one bus.
  paceIn(paced) {
    const { clock, mcu } = this;
    const usbReady = mcu.usbCtrl.indicateBufferReady.bind(mcu.usbCtrl);
    const inDone = []; // [nanos, endpoint] of IN packets on the bus
    let inBusFree = 0;
    const inAlarm = clock.createAlarm(() => {
      usbReady(inDone.shift()[1], false);
      if (inDone.length) inAlarm.schedule(inDone[0][0] - clock.nanos);
    });
    mcu.usbCtrl.indicateBufferReady = (endpoint, out) => {
      if (out || !paced(endpoint)) return usbReady(endpoint, out);
      inBusFree = Math.max(inBusFree, clock.nanos) + IN_PACKET_NS;
      inDone.push([inBusFree, endpoint]);
      if (inDone.length === 1) inAlarm.schedule(inBusFree - clock.nanos);
    };
  }

  stats() {
    const panel = this.panel;
    return {
      cycles: this.cycles(),
      panel_bytes: panel.bytes,
      panel_writes: panel.writes,
      on: panel.on,
      panel_lit: panel.lit(),
      panel_unknown: panel.unknown,
      ...this.moreStats(),
    };
  }

  send(obj) {
    process.stdout.write(JSON.stringify(obj) + '\n');
  }

  // The control channel: a JSON line an op on stdin, {"op": name, ...}; ops are the harness's
  // own (and those it answers otherwise), beside these.
  listen(ops = {}) {
    const all = {
      stop: () => this.powerOff(),
      stats: () => this.send({ ev: 'stats', ...this.stats() }),
      frame: () => this.send({ ev: 'frame', frame: hex(this.panel.frame()), on: this.panel.on }),
      flashlog: () => this.send({ ev: 'flashlog', log: this.flashlog }),
      vsys: (m) => this.vsys(m.mv),
      play: (m) => this.play(m.steps),
      ...ops,
    };
    readline.createInterface({ input: process.stdin }).on('line', (line) => {
      const m = JSON.parse(line);
      if (all[m.op]) all[m.op](m);
      this.wake();
    });
    process.stdin.on('end', () => this.powerOff()); // the driver is gone
    process.on('SIGINT', () => {}); // a Ctrl-C at the terminal is the driver's to handle
  }

  // Key steps in emulated time: press, hold, release, gap; the frame after each gap.
  play(steps) {
    const panel = this.panel;
    const out = { frames: [], press_ns: [], frame_ns: [], shown: [hex(panel.frame())] };
    this.shown = out.shown;
    let i = 0;
    let phase = 0;
    const next = () => {
      if (phase === 1) {
        this.held = null;
        this.keysUpdate();
        this.keysChanged();
        phase = 2;
        this.keyAlarm.schedule(steps[i][3] * 1e6);
        return;
      }
      if (phase === 2) {
        out.frames.push(hex(panel.frame()));
        out.frame_ns.push(panel.lastWrite);
        i++;
      }
      if (i >= steps.length) {
        this.playing = null;
        this.shown = null;
        this.played();
        this.send({ ev: 'played', ...out, ...this.stats() });
        return;
      }
      const [pad, gpio, hold] = steps[i];
      this.held = pad == null && gpio == null ? null : { pad, gpio };
      this.keysUpdate();
      this.keysChanged();
      out.press_ns.push(this.clock.nanos);
      phase = 1;
      this.keyAlarm.schedule(hold * 1e6);
    };
    this.playing = next;
    next();
  }

  powerOff() {
    fs.writeFileSync(this.cfg.flash, this.fsRegion());
    this.send({ ev: 'off', ...this.stats() });
    process.exit(0);
  }

  // The CPU: run in slices, servicing USB and the control channel between them. A core
  // waiting for an interrupt jumps to the next alarm (sleep is fast-forwarded), no further than
  // idleLimit() (a harness's: the emulated time its PIO can catch up cheaply); with no alarm,
  // or at the limit, it waits for the PC and the wall clock.
  wake() {
    if (this.sleeping && this.running) {
      clearTimeout(this.sleeping);
      this.sleeping = null;
      setImmediate(() => this.run());
    }
  }

  run() {
    const { clock, cutNanos, prof } = this;
    const core = this.mcu.core;
    const end = performance.now() + 25;
    while (performance.now() < end) {
      for (let i = 0; i < 50000; i++) {
        if (clock.nanos >= cutNanos) return this.powerOff();
        if (!this.running) return;
        if (core.waiting) {
          const n = Math.min(clock.nanosToNextAlarm, this.idleLimit() - clock.nanos);
          if (n <= 0) break;
          clock.tick(Math.min(n, cutNanos - clock.nanos));
        } else if (prof) {
          const pc = core.PC;
          const n = core.executeInstruction();
          prof.set(pc, (prof.get(pc) || 0) + n);
          clock.tick(n * NS_PER_CYCLE);
        } else {
          clock.tick(core.executeInstruction() * NS_PER_CYCLE);
        }
      }
      this.feed();
      if (core.waiting && (clock.nanosToNextAlarm <= 0 || this.idleLimit() <= clock.nanos)) {
        this.sleeping = setTimeout(() => ((this.sleeping = null), this.run()), 5);
        return;
      }
    }
    setImmediate(() => this.run());
  }
}
