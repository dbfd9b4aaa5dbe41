// The emulated Pico: MicroPython's RPI_PICO image on rp2040js, with the box's hardware
// modelled around it (board.mjs, shared with CircuitPython's harness; here the PIO on the
// clock, the flash chip's time and USB's IN packets at full speed). Started by emu.py (the
// Python driver), which passes the USB wire (a socket, its fd number in the config, that
// emu.py relays to the pty the PC opens) and speaks JSON lines on stdin/stdout (the config is
// argv[2], JSON):
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
import { Board, NS_PER_CYCLE } from './board.mjs';

const cfg = JSON.parse(process.argv[2]);
const board = new Board(cfg);
const { clock, mcu } = board;

// The flash chip's time (cfg.flash_model, docs/rp2.md): the Pico's W25Q16JV erases a 4 KB
// sector in tSE and programs a 256-byte page in tPP, typical or maximum (Winbond's datasheet).
// MicroPython runs both with interrupts off and the XIP cache flushed: the CPU stalls for
// them, while the timers, the keys and USB go on (an interrupt raised meanwhile waits).
const FLASH_NS = {
  typical: { erase: 45e6, program: 0.4e6 },
  max: { erase: 400e6, program: 3e6 },
}[cfg.flash_model];
let flashStallNs = 0;
board.afterFlash = (op, bytes) => {
  if (!FLASH_NS) return;
  const ns = op === 'erase' ? Math.ceil(bytes / 4096) * FLASH_NS.erase : Math.ceil(bytes / 256) * FLASH_NS.program;
  flashStallNs += ns;
  clock.tick(ns);
};
// Snapshots of the file system region at chosen cycles (what a power cut then would leave):
// the flash changes only at a flash operation, so each is written before the first at or past it.
let snaps = [];
function snapshots(cycles) {
  while (snaps.length && snaps[0] <= cycles) fs.writeFileSync(cfg.flash + '.at' + snaps.shift(), board.fsRegion());
}
board.beforeFlash = snapshots;

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
let pioBusy = false; // a step that drives a row updates the keys: not again from there
let pioAt = [0, performance.now()]; // the emulated and the wall time of the last pioRun
function pioRun() {
  if (pioBusy) return;
  pioBusy = true;
  const now = clock.nanos;
  pioAt = [now, performance.now()];
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
board.sampleKeys = pioRun; // what the PIO sampled up to now, with the keys as they were
board.keysChanged = () => pioAlarm.schedule(2e6);
// A waiting core jumps no more than 1 s of emulated time past the wall clock's since the CPU
// last touched the PIO, while a state machine runs and no keys play: pioRun replays every
// instruction of the time jumped (about 25,000 a second for the keypad's scan, 30 us each
// here). Unbounded, the REPL's idle ran 50 s of emulated time in a quarter of a second, and
// the soft reset's first touch of the PIO then took a minute of the PC's.
const PIO_LEAD_NS = 1e9;
board.idleLimit = () => {
  if (board.playing || !mcu.pio.some((p) => !p.stopped && p.machines.some((sm) => sm.enabled))) return Infinity;
  return pioAt[0] + (performance.now() - pioAt[1]) * 1e6 + PIO_LEAD_NS;
};

board.paceIn((endpoint) => endpoint === board.cdc.inEndpoint); // the bus's speed (board.mjs)
// A command's time on the wire (bench_rp2.py): its first byte in, the box's last byte out.
let usbFirstIn = null;
let usbLastOut = null;
board.usb.on('data', () => {
  if (usbFirstIn === null) usbFirstIn = board.cycles();
});
const serialOut = board.cdc.onSerialData;
board.cdc.onSerialData = (buf) => {
  usbLastOut = board.cycles();
  serialOut(buf);
};

board.moreStats = () => ({
  bus_ns: board.panel.busNanos,
  flash_stall_ns: flashStallNs,
  pio_fdebug: mcu.pio.map((p) => p.fdebug), // RXSTALL (bits 0-3): a push found its FIFO full
});
// Powered at once, or (cfg.paused) only while keys play (from the first play on, and
// stopped at the end of each): then every cycle of a run is the same from run to run.
board.running = !cfg.paused;
board.played = () => {
  if (cfg.paused) board.running = false;
  snapshots(board.cycles());
};
function powerOn() {
  if (board.running) return;
  board.running = true;
  board.run();
}
board.listen({
  play: (m) => (board.play(m.steps), powerOn()),
  run: powerOn,
  cut_at: (m) => ((board.cutNanos = m.cycles * NS_PER_CYCLE), powerOn()),
  snap_at: (m) => (snaps = m.cycles.slice().sort((a, b) => a - b)),
  stats: () => board.send({ ev: 'stats', ...board.stats(), usb_first_in: usbFirstIn, usb_last_out: usbLastOut }),
  usb_mark: () => (usbFirstIn = usbLastOut = null),
  profile: (m) => (board.prof = m.on ? new Map() : (board.send({ ev: 'profile', pcs: [...(board.prof || [])] }), null)),
});
if (board.running) board.run();
