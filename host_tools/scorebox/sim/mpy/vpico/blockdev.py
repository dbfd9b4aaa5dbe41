"""A RAM block device with the Pico's flash geometry, for `vfs.VfsLfs2`.

    from vpico.blockdev import RamBlockDev
    bdev = RamBlockDev()                  # 352 blocks of 4096 bytes: the Pico's 1408 KiB
    vfs.VfsLfs2.mkfs(bdev)
    vfs.mount(vfs.VfsLfs2(bdev), "/flash")

It speaks MicroPython's extended block protocol, as `rp2.Flash` does:

- `readblocks(block, buf, offset=0)`: read len(buf) bytes at offset in block.
- `writeblocks(block, buf, offset)`: program len(buf) bytes at offset in block. Like NOR
  flash, programming only clears bits (new = old AND data): a file system that programs
  over data it has not erased gets garbage here as it would on the Pico. Without offset
  (the simple protocol, used by FAT) the blocks are erased first.
- `ioctl(op, arg)`: 1 init, 2 deinit, 3 sync, 4 block count, 5 block size, 6 erase block arg
  (to 0xFF).

For power-cut tests (and the simulator's "pull the battery"):

- `on_write`: None, or a callable `on_write(dev, block, offset, data)` called *before* every
  program (data is the bytes to program) and every erase (offset 0, data None). It may
  record the operation, copy the device, or raise to stop the write from happening.
- `writes` and `erases` count the operations done so far.
- `snapshot()` copies the whole device (bytes); `restore(snap)` puts a copy back; a new
  device can also start from one: `RamBlockDev(data=snap)`.
- `apply(block, offset, data, part=1.0)` does one recorded operation, or only the first
  `part` of its bytes: a write cut halfway is `apply(b, o, d, 0.5)`.

Pure MicroPython and CPython code: no `machine`.
"""

ERASED = 0xFF

IOCTL_INIT = 1
IOCTL_DEINIT = 2
IOCTL_SYNC = 3
IOCTL_BLOCK_COUNT = 4
IOCTL_BLOCK_SIZE = 5
IOCTL_BLOCK_ERASE = 6


class RamBlockDev:
    def __init__(self, blocks=352, block_size=4096, data=None):
        self.block_size = block_size
        self.blocks = blocks
        size = blocks * block_size
        if data is None:
            self.data = bytearray(b"\xff" * size)
        else:
            if len(data) != size:
                raise ValueError("data is %d bytes, not %d" % (len(data), size))
            self.data = bytearray(data)
        self._mv = memoryview(self.data)  # reads copy from it without a new view each time
        self._size = size
        self._erased = b"\xff" * block_size
        self.writes = 0
        self.erases = 0
        self.on_write = None

    # --- the block protocol -------------------------------------------------------------
    def readblocks(self, block, buf, offset=0):
        a = block * self.block_size + offset
        n = len(buf)
        if a < 0 or a + n > self._size:
            raise OSError(5)  # EIO: past the end of the flash
        buf[:] = self._mv[a : a + n]

    def writeblocks(self, block, buf, offset=None):
        if offset is None:  # simple protocol: whole blocks, erased first
            n = len(buf) // self.block_size
            for i in range(n):
                self.erase(block + i)
            offset = 0
        self.program(block, offset, buf)

    def ioctl(self, op, arg):
        if op == IOCTL_BLOCK_COUNT:
            return self.blocks
        if op == IOCTL_BLOCK_SIZE:
            return self.block_size
        if op == IOCTL_BLOCK_ERASE:
            self.erase(arg)
            return 0
        if op in (IOCTL_INIT, IOCTL_DEINIT, IOCTL_SYNC):
            return 0
        return None

    # --- operations ---------------------------------------------------------------------
    def erase(self, block):
        if not 0 <= block < self.blocks:
            raise OSError(5)  # EIO
        if self.on_write is not None:
            self.on_write(self, block, 0, None)
        self.erases += 1
        self.apply(block, 0, None)

    def program(self, block, offset, buf):
        a = block * self.block_size + offset
        self._check(a, len(buf))
        if self.on_write is not None:
            self.on_write(self, block, offset, buf)
        self.writes += 1
        self.apply(block, offset, buf)

    def apply(self, block, offset, data, part=1.0):
        """Do one operation (data None: erase the block) on the bytes, no hook, no count;
        with part < 1 only its first part of the bytes, as a write cut short."""
        bs = self.block_size
        a = block * bs + offset
        if data is None:
            n = int(bs * part)
            self.data[a : a + n] = self._erased[:n]
            return
        n = int(len(data) * part)
        if n <= 0:
            return
        d = self.data
        if d[a : a + n] == self._erased[:n]:
            d[a : a + n] = data[:n]
        else:  # NOR flash: programming can only clear bits
            old = int.from_bytes(d[a : a + n], "big")
            new = int.from_bytes(bytes(data[:n]), "big")
            d[a : a + n] = (old & new).to_bytes(n, "big")

    def snapshot(self):
        return bytes(self.data)

    def restore(self, snap):
        if len(snap) != len(self.data):
            raise ValueError("snapshot is %d bytes, not %d" % (len(snap), len(self.data)))
        self.data[:] = snap  # in place: self.data stays the same object

    def _check(self, a, n):
        if a < 0 or a + n > len(self.data):
            raise OSError(5)  # EIO: past the end of the flash
