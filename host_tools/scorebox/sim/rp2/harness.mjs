// The emulated Pico: MicroPython's RPI_PICO image on rp2040js, with the box's hardware
// modelled around it. Started by emu.py (the Python driver), which passes the USB wire (a
// socket, its fd number in the config, that emu.py relays to the pty the PC opens) and
// speaks JSON lines on stdin/stdout (the config is argv[2], JSON):
//   {"op": "play", "steps": [[pad, gpio, hold_ms, gap_ms], ...]}  keys in emulated time;
//        answers {"ev": "played", "frames": [hex, ...], "press_ns": [...], "frame_ns": [...],
//        "shown": [hex, ...]} (frames: after each step; shown: every picture, in order)
//   {"op": "cut_at", "cycles": N}   power cut at that cycle: flash saved, then exit
//   {"op": "stop"}                  power off now, flash saved
//   {"op": "run"}                   power on (when started paused)
//   {"op": "snap_at", "cycles": [N, ...]}  the flash as a cut at each would leave it, in FLASH.atN
//   {"op": "profile", "on": true|false}  cycles by program counter; off answers {"ev": "profile"}
//   {"op": "stats"} / {"op": "frame"} / {"op": "flashlog"} / {"op": "vsys", "mv": N}
//   {"op": "usb_mark"}  stats' usb_first_in / usb_last_out count again from now: the cycle of
//        the PC's first byte since, and of the box's last byte to the PC (null: none yet)
// Events it sends on its own: {"ev": "usb"} when the PC's side of USB is configured.
import fs from 'node:fs';
import net from 'node:net';
import readline from 'node:readline';
import { GPIOPinState, Simulator, USBCDC } from 'rp2040js';
import { Panel } from './panel.mjs';

const NS_PER_CYCLE = 8; // 125 MHz
const FLASH_BASE = 0x10000000;

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

const cfg = JSON.parse(process.argv[2]);
const sim = new Simulator(); // its RP2040 and clock; the run loop is ours (run() below)
const { clock, rp2040: mcu } = sim;
mcu.loadBootrom(new Uint32Array(new Uint8Array(fs.readFileSync(cfg.bootrom)).buffer));
mcu.logger = { debug() {}, info() {}, warn() {}, error() {} };
loadUF2(cfg.uf2, mcu.flash);
// Start at the image's second-stage loader, as rp2040js's MicroPython demo does: the ROM's
// own reset path waits for things rp2040js does not model. The ROM's functions are used.
mcu.core.PC = FLASH_BASE;
const fsRegion = () => mcu.flash.subarray(cfg.fs_offset, cfg.fs_offset + cfg.fs_size);
if (fs.existsSync(cfg.flash)) fsRegion().set(fs.readFileSync(cfg.flash).subarray(0, cfg.fs_size));

// Flash writes: rp2040js cannot erase or program its flash, so the ROM's flash_range_erase
// and flash_range_program become breakpoints serviced here on the flash array (NOR: a
// program can only clear bits).
const rom16 = new Uint16Array(mcu.bootrom.buffer);
const BK_ERASE = 1;
const BK_PROGRAM = 2;
rom16[romFunction(rom16, 'RE') / 2] = 0xbe00 | BK_ERASE;
rom16[romFunction(rom16, 'RP') / 2] = 0xbe00 | BK_PROGRAM;
// The flash chip's time (cfg.flash_model, docs/rp2.md): the Pico's W25Q16JV erases a 4 KB
// sector in tSE and programs a 256-byte page in tPP, typical or maximum (Winbond's datasheet).
// MicroPython runs both with interrupts off and the XIP cache flushed: the CPU stalls for
// them, while the timers, the keys and USB go on (an interrupt raised meanwhile waits).
const FLASH_NS = {
  typical: { erase: 45e6, program: 0.4e6 },
  max: { erase: 400e6, program: 3e6 },
}[cfg.flash_model];
let flashStallNs = 0;
const flashlog = [];
// Snapshots of the file system region at chosen cycles (what a power cut then would leave):
// the flash changes only here, so each is written before the first operation at or past it.
let snaps = [];
function snapshots(cycles) {
  while (snaps.length && snaps[0] <= cycles) fs.writeFileSync(cfg.flash + '.at' + snaps.shift(), fsRegion());
}
mcu.onBreak = (code) => {
  const r = mcu.core.registers;
  const cycles = Math.round(clock.nanos / NS_PER_CYCLE);
  snapshots(cycles);
  if (code === BK_ERASE) {
    mcu.flash.fill(0xff, r[0], r[0] + r[1]);
    flashlog.push([cycles, 'erase', r[0], r[1]]);
    if (FLASH_NS) stall(Math.ceil(r[1] / 4096) * FLASH_NS.erase);
  } else if (code === BK_PROGRAM) {
    for (let i = 0; i < r[2]; i++) mcu.flash[r[0] + i] &= mcu.readUint8(r[1] + i);
    flashlog.push([cycles, 'program', r[0], r[2]]);
    if (FLASH_NS) stall(Math.ceil(r[2] / 256) * FLASH_NS.program);
  } else {
    throw new Error('breakpoint ' + code + ' at ' + mcu.core.PC.toString(16));
  }
  mcu.core.PC = r[14] & ~1; // return from the ROM function
};
function stall(ns) {
  flashStallNs += ns;
  clock.tick(ns);
}

// The display on I2C0 at the pins.py address.
const panel = new Panel(cfg.panel, cfg.panel_addr, cfg.i2c_hz);
panel.attach(mcu.i2c[cfg.i2c_bus], clock);
// Every picture the panel showed while keys play, in order: its RAM after each transfer that
// changed it. The same keys give the same pictures however long the box took over them.
let shown = null;
const i2cStop = mcu.i2c[cfg.i2c_bus].onStop;
mcu.i2c[cfg.i2c_bus].onStop = () => {
  i2cStop();
  if (!shown) return;
  const f = hex(panel.frame());
  if (f !== shown[shown.length - 1]) shown.push(f);
};

// PIO in emulated time: rp2040js steps its state machines from a JavaScript timer, apart from
// the CPU's clock, and runs an instruction a step whatever its delay and the clock divider.
// Here each state machine runs on the clock: an instruction takes (1 + delay) x the divider's
// cycles, run up to now before a key changes, 2 ms after it (a scan of the keypad has seen it
// by then: its push and interrupt come on time) and before the CPU touches the PIO. A state
// machine scanning the keypad keeps going while the CPU stalls, as on a Pico.
for (const pio of mcu.pio) {
  pio.run = () => {};
  for (const sm of pio.machines) sm.nextNs = 0;
  const read = pio.readUint32.bind(pio);
  const write = pio.writeUint32.bind(pio);
  pio.readUint32 = (offset) => (pioRun(), read(offset));
  pio.writeUint32 = (offset, value) => {
    pioRun();
    const was = pio.machines.map((sm) => sm.enabled);
    write(offset, value);
    pio.machines.forEach((sm, i) => {
      if (sm.enabled && !was[i]) sm.nextNs = clock.nanos;
      // SHIFTCTRL's FJOIN_RX (bit 31) gives the RX FIFO the TX one's 4 words: 8 deep
      // (rp2040js keeps 4 whatever the join); a change of join empties both, as on the chip.
      const rx = sm.shiftCtrl >>> 31 ? 8 : 4;
      if (sm.rxFIFO.buffer.length !== rx) {
        sm.rxFIFO.buffer = new Uint32Array(rx);
        sm.rxFIFO.start = sm.rxFIFO.used = 0;
      }
    });
  };
}
let pioBusy = false; // a step that drives a row calls keysUpdate(): not again from there
function pioRun() {
  if (pioBusy) return;
  pioBusy = true;
  const now = clock.nanos;
  for (const pio of mcu.pio) {
    if (pio.stopped) continue;
    for (const sm of pio.machines) {
      if (!sm.enabled) continue;
      const div = (sm.clockDivInt || 65536) + sm.clockDivFrac / 256;
      while (sm.nextNs <= now) {
        const c = sm.cycles;
        sm.step();
        pio.checkChangedPins();
        sm.nextNs += Math.max(1, sm.cycles - c) * div * NS_PER_CYCLE;
      }
    }
  }
  pioBusy = false;
}

const pioAlarm = clock.createAlarm(() => pioRun());

// Keys: the 4x4 matrix (rows driven low one at a time; the held key's column reads low
// while its row is low) and the six buttons to GND.
let held = null; // {pad: index} or {gpio: n}
function keysUpdate() {
  pioRun(); // what the PIO sampled up to now, with the keys as they were
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
function keysChanged() {
  keysUpdate();
  pioAlarm.schedule(2e6);
}

// Power: VSYS through the Pico's divider of 3 on ADC3 (12 bits of 3.3 V), VBUS sense on GP24.
function vsys(mv) {
  mcu.adc.channelValues[3] = Math.min(4095, Math.round(((mv / 3) * 4096) / 3300));
}
vsys(cfg.vsys_mv);
mcu.gpio[cfg.vbus_gpio].setInputValue(cfg.vbus);

// USB CDC on the pty. The PC side's reads wait (as a host's NAKs do) until it has data.
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
// Full speed: a bulk IN packet of 64 bytes completes no sooner than the bus can carry it, at
// most 19 per 1 ms frame (1.2 MB/s; rp2040js completes a transfer at once otherwise). The
// firmware's next packet waits for the completion, as on a Pico.
const IN_PACKET_NS = 1e6 / 19;
const usbReady = mcu.usbCtrl.indicateBufferReady.bind(mcu.usbCtrl);
const inDone = []; // [nanos, endpoint] of IN packets on the bus
let inBusFree = 0;
const inAlarm = clock.createAlarm(() => {
  usbReady(inDone.shift()[1], false);
  if (inDone.length) inAlarm.schedule(inDone[0][0] - clock.nanos);
});
mcu.usbCtrl.indicateBufferReady = (endpoint, out) => {
  if (out || endpoint !== cdc.inEndpoint) return usbReady(endpoint, out);
  inBusFree = Math.max(inBusFree, clock.nanos) + IN_PACKET_NS;
  inDone.push([inBusFree, endpoint]);
  if (inDone.length === 1) inAlarm.schedule(inBusFree - clock.nanos);
};
const usb = new net.Socket({ fd: cfg.usb_fd, readable: true, writable: true });
// A command's time on the wire (bench_rp2.py): its first byte in, the box's last byte out.
let usbFirstIn = null;
let usbLastOut = null;
usb.on('data', (chunk) => {
  if (usbFirstIn === null) usbFirstIn = Math.round(clock.nanos / NS_PER_CYCLE);
  for (const b of chunk) inbox.push(b);
  if (inbox.length > 65536) usb.pause();
  wake();
});
usb.on('error', () => {}); // the PC closed its side: a cable pulled out
cdc.onDeviceConnected = () => send({ ev: 'usb' });
cdc.onSerialData = (buf) => {
  usbLastOut = Math.round(clock.nanos / NS_PER_CYCLE);
  usb.write(Buffer.from(buf));
};

// The control channel.
function send(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}
const hex = (a) => Buffer.from(a).toString('hex');
let cutNanos = Infinity;
// Powered at once, or (cfg.paused) only while keys play (from the first play on, and
// stopped at the end of each): then every cycle of a run is the same from run to run.
let running = !cfg.paused;
let play = null;
let prof = null; // cycles spent at each program counter while profiling (PC -> cycles)
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.op === 'cut_at') cutNanos = m.cycles * NS_PER_CYCLE;
  else if (m.op === 'stop') powerOff();
  else if (m.op === 'stats') send({ ev: 'stats', ...stats(), usb_first_in: usbFirstIn, usb_last_out: usbLastOut });
  else if (m.op === 'usb_mark') usbFirstIn = usbLastOut = null;
  else if (m.op === 'frame') send({ ev: 'frame', frame: hex(panel.frame()), on: panel.on });
  else if (m.op === 'flashlog') send({ ev: 'flashlog', log: flashlog });
  else if (m.op === 'vsys') vsys(m.mv);
  else if (m.op === 'snap_at') snaps = m.cycles.slice().sort((a, b) => a - b);
  else if (m.op === 'play') startPlay(m.steps);
  else if (m.op === 'profile') prof = m.on ? new Map() : (send({ ev: 'profile', pcs: [...(prof || [])] }), null);
  if (!running && (m.op === 'play' || m.op === 'run' || m.op === 'cut_at')) {
    running = true;
    run();
  } else wake();
});
process.stdin.on('end', () => powerOff()); // the driver is gone
process.on('SIGINT', () => {}); // a Ctrl-C at the terminal is the driver's to handle

function stats() {
  return {
    cycles: Math.round(clock.nanos / NS_PER_CYCLE),
    panel_bytes: panel.bytes,
    panel_writes: panel.writes,
    bus_ns: panel.busNanos,
    on: panel.on,
    panel_lit: panel.lit(),
    panel_unknown: panel.unknown,
    flash_stall_ns: flashStallNs,
    pio_fdebug: mcu.pio.map((p) => p.fdebug), // RXSTALL (bits 0-3): a push found its FIFO full
  };
}

// Key steps in emulated time: press, hold, release, gap; the frame after each gap.
const keyAlarm = clock.createAlarm(() => play && play.next());
function startPlay(steps) {
  const out = { frames: [], press_ns: [], frame_ns: [], shown: [hex(panel.frame())] };
  shown = out.shown;
  let i = 0;
  let phase = 0;
  play = {
    next() {
      if (phase === 1) {
        held = null;
        keysChanged();
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
        if (cfg.paused) running = false;
        snapshots(Math.round(clock.nanos / NS_PER_CYCLE));
        send({ ev: 'played', ...out, ...stats() });
        return;
      }
      const [pad, gpio, hold] = steps[i];
      held = pad == null && gpio == null ? null : { pad, gpio };
      keysChanged();
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

// The CPU: run in slices, servicing USB and the control channel between them. A core
// waiting for an interrupt jumps to the next alarm (sleep is fast-forwarded); with no alarm
// it waits for the PC.
let sleeping = null;
function wake() {
  if (sleeping && running) {
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
      if (clock.nanos >= cutNanos) return powerOff();
      if (!running) return;
      if (core.waiting) {
        const n = clock.nanosToNextAlarm;
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
    feed();
    if (core.waiting && clock.nanosToNextAlarm <= 0) {
      sleeping = setTimeout(() => ((sleeping = null), run()), 5);
      return;
    }
  }
  setImmediate(run);
}
if (running) run();
