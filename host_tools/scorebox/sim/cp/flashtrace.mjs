// Every flash write, in order, to a host file (cfg.flash_trace), for power cuts at each of them
// on the PC (tests/cp/test_cp_powercut.py): the drive as a cut leaves it is the drive before
// plus the writes that came before the cut. A record is a 20-byte head, little-endian: the
// cycle (float64), the kind (uint32: 1 erase, 2 program in CIRCUITPY's region; 3 a program
// elsewhere, microcontroller.nvm's, which a test's code.py uses as a marker), the offset
// (uint32: in the region; for kind 3 the flash address) and the length (uint32); then, for a
// program in the region, its bytes as the flash holds them after it, and for kind 3 the first
// 4 bytes written.
import fs from 'node:fs';

export function traceFlash(board, path) {
  const { fs_offset: base, fs_size: size } = board.cfg;
  const fd = fs.openSync(path, 'w');
  const flash = board.mcu.flash;
  const before = board.afterFlash;
  board.afterFlash = (op, bytes) => {
    before(op, bytes);
    const [cycles, , addr] = board.flashlog[board.flashlog.length - 1];
    const inside = addr >= base && addr < base + size;
    if (!inside && op === 'erase') return;
    const head = Buffer.alloc(20);
    head.writeDoubleLE(cycles, 0);
    head.writeUInt32LE(!inside ? 3 : op === 'erase' ? 1 : 2, 8);
    head.writeUInt32LE(inside ? addr - base : addr, 12);
    head.writeUInt32LE(bytes, 16);
    fs.writeSync(fd, head);
    if (op === 'program') fs.writeSync(fd, flash.subarray(addr, addr + (inside ? bytes : 4)));
  };
}
