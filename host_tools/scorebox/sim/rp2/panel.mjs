// The OLED panel on I2C0: an SH1106, SSD1306 or SSD1309 model that decodes the driver's
// control, command and data bytes into its display RAM (what the virtual Pico's panel
// keeps), counts the bytes and makes each byte take its bus time at the configured I2C
// speed. What differs between them on the bus is modelled as vpico/board.py's BusPanel
// does: the SH1106's 132 columns and page addressing only, the SSD1306's charge pump (its
// glass stays dark without it), the SSD1309's command lock; a command byte the controller
// does not have is counted in `unknown`.

const WIDTH = 128;
const PAGES = 8;
// Commands followed by argument bytes (SSD1306, SSD1309 and SH1106 datasheets).
const SSD = { 0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0xa8: 1, 0xd3: 1, 0xd5: 1, 0xd9: 1, 0xda: 1, 0xdb: 1 };
const ARGS = {
  SSD1306: { ...SSD, 0x8d: 1 }, // charge pump
  SSD1309: { ...SSD, 0xfd: 1 }, // command lock
  SH1106: { 0x81: 1, 0xa8: 1, 0xad: 1, 0xd3: 1, 0xd5: 1, 0xd9: 1, 0xda: 1, 0xdb: 1 },
};
const SINGLE = [0xa0, 0xa1, 0xa4, 0xa5, 0xa6, 0xa7, 0xae, 0xaf, 0xc0, 0xc8, 0xe3];

// A command byte that takes no argument on this controller.
function single(kind, c) {
  if (c < 0x20 || (c >= 0x40 && c < 0x80) || (c >= 0xb0 && c < 0xb8) || SINGLE.includes(c)) return true;
  return kind === 'SH1106' ? c >= 0x30 && c < 0x34 : c === 0x2e || c === 0x2f;
}

export class Panel {
  constructor(kind, address, busHz) {
    if (!ARGS[kind]) throw new Error('no model of a ' + kind + ' panel');
    this.kind = kind; // "SH1106", "SSD1306" or "SSD1309"
    this.args = ARGS[kind];
    this.address = address;
    this.ramWidth = kind === 'SH1106' ? 132 : WIDTH;
    this.offset = kind === 'SH1106' ? 2 : 0; // the SH1106's 128 visible columns of 132
    this.ram = new Uint8Array(this.ramWidth * PAGES);
    this.byteNanos = (9 * 1e9) / busHz; // 8 data bits and the acknowledge
    this.bytes = 0; // every byte on the bus to the panel, address bytes included
    this.busNanos = 0;
    this.writes = 0; // data bytes into the display RAM
    this.lastWrite = 0; // emulated ns of the last display RAM write
    this.on = false;
    this.pump = false; // the SSD1306's charge pump
    this.locked = false; // the SSD1309's command lock
    this.unknown = 0;
    this.contrast = 255;
    this.mode = 2; // page addressing after reset
    this.col = 0;
    this.page = 0;
    this.cols = [0, this.ramWidth - 1];
    this.pages = [0, PAGES - 1];
    this.state = 'ctrl';
    this.cmd = [];
  }

  // A new transfer to our address: the first byte is a control byte.
  start() {
    this.state = 'ctrl'; // a command's arguments may come in later transfers (Co=1 each)
  }

  byte(v, nanos) {
    if (this.state === 'ctrl') {
      const dc = (v & 0x40) !== 0;
      this.state = v & 0x80 ? (dc ? 'data1' : 'cmd1') : dc ? 'data' : 'cmd';
      return;
    }
    if (this.state === 'data' || this.state === 'data1') {
      this.data(v, nanos);
    } else {
      this.command(v);
    }
    if (this.state === 'data1' || this.state === 'cmd1') this.state = 'ctrl'; // Co=1: one byte, then control
  }

  command(v) {
    const c = this.cmd;
    c.push(v);
    const op = c[0];
    const n = this.args[op] || 0;
    if (c.length <= n) return;
    this.cmd = [];
    if (!n && !single(this.kind, op)) {
      this.unknown++;
      return;
    }
    if (this.locked && op !== 0xfd) return;
    if (op === 0xfd) this.locked = (c[1] & 0x04) !== 0; // 0x16 locks, 0x12 unlocks
    else if (op === 0x8d) this.pump = (c[1] & 0x04) !== 0;
    else if (op === 0x20) this.mode = c[1] & 3;
    else if (op === 0x21) [this.cols, this.col] = [[c[1], c[2]], c[1]];
    else if (op === 0x22) [this.pages, this.page] = [[c[1] & 7, c[2] & 7], c[1] & 7];
    else if (op === 0x81) this.contrast = c[1];
    else if (op === 0xae || op === 0xaf) this.on = op === 0xaf;
    else if (op >= 0xb0 && op <= 0xb7) this.page = op & 7;
    else if (op <= 0x0f) this.col = (this.col & 0xf0) | op;
    else if (op >= 0x10 && op <= 0x1f) this.col = ((op & 0x0f) << 4) | (this.col & 0x0f);
  }

  // What the glass shows at all: on, and an SSD1306's charge pump on.
  lit() {
    return this.on && (this.pump || this.kind !== 'SSD1306');
  }

  data(v, nanos) {
    if (this.locked) return;
    if (this.col < this.ramWidth) this.ram[this.page * this.ramWidth + this.col] = v;
    this.writes++;
    this.lastWrite = nanos;
    if (this.mode === 0) {
      // horizontal: wrap within the column range, then to the next page in the page range
      if (this.col >= this.cols[1]) {
        this.col = this.cols[0];
        this.page = this.page >= this.pages[1] ? this.pages[0] : this.page + 1;
      } else this.col++;
    } else if (this.mode === 2) {
      if (this.col < this.ramWidth - 1) this.col++;
    }
  }

  // The 128x64 frame as the virtual Pico's panel keeps it: 8 pages of 128 column bytes.
  frame() {
    if (this.offset === 0) return this.ram;
    const out = new Uint8Array(WIDTH * PAGES);
    for (let p = 0; p < PAGES; p++) {
      out.set(this.ram.subarray(p * this.ramWidth + this.offset, p * this.ramWidth + this.offset + WIDTH), p * WIDTH);
    }
    return out;
  }

  // Wire the model to an rp2040js I2C controller; `clock` adds each byte's bus time.
  attach(i2c, clock) {
    let ours = false;
    const alarm = clock.createAlarm(() => this.pending());
    const later = (fn) => {
      this.pending = fn;
      this.busNanos += this.byteNanos;
      alarm.schedule(this.byteNanos);
    };
    i2c.onStart = () => i2c.completeStart();
    i2c.onConnect = (address) => {
      ours = address === this.address;
      this.bytes++;
      if (ours) this.start();
      later(() => i2c.completeConnect(ours));
    };
    i2c.onWriteByte = (v) => {
      this.bytes++;
      this.byte(v, clock.nanos);
      later(() => i2c.completeWrite(true));
    };
    i2c.onReadByte = () => later(() => i2c.completeRead(0));
    i2c.onStop = () => i2c.completeStop();
  }
}
