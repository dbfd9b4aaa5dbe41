"""The virtual Pico's flash kept in a host file instead of the MicroPython heap.

vpico/blockdev.py's RamBlockDev keeps its 1408 KiB in a bytearray, which lives in the
MicroPython heap: fine for power-cut tests, but then `-X heapsize=192k` (the heap a Pico
would give the app) cannot hold it. On a Pico the flash is not RAM either. FileBlockDev is
the same device (same geometry, same extended block protocol, NOR programming that only
clears bits, the same on_write hook and counters) with its bytes in a file, read and
written through a scratch buffer allocated once. The file is also the box's memory
between simulator runs (`scorebox sim --state FILE`). Writes go straight to the file with
no flush: on the unix port flush() is an fsync, milliseconds a write, and a power cut of
the virtual Pico is not a crash of the PC.
"""

from vpico.blockdev import RamBlockDev

_CHUNK = 256


class FileBlockDev(RamBlockDev):
    def __init__(self, path, blocks=352, block_size=4096):
        # RamBlockDev's attributes, without its bytearray of the whole flash.
        self.block_size = block_size
        self.blocks = blocks
        self.writes = 0
        self.erases = 0
        self.on_write = None
        self.size = blocks * block_size
        self._scratch = bytearray(_CHUNK)  # small: this is the device's cost, not the app's
        self._erased = b"\xff" * _CHUNK
        try:
            self.f = open(path, "r+b")
            self.f.seek(0, 2)
            have = self.f.tell()
        except OSError:
            self.f = open(path, "w+b")
            have = 0
        if have < self.size:  # new flash is erased
            self.f.seek(have)
            n = self.size - have
            while n > 0:
                k = min(n, _CHUNK)
                self.f.write(self._erased[:k])
                n -= k
        self.fresh = have == 0

    def _check(self, a, n):
        if a < 0 or a + n > self.size:
            raise OSError(5)

    def readblocks(self, block, buf, offset=0):
        a = block * self.block_size + offset
        self._check(a, len(buf))
        self.f.seek(a)
        self.f.readinto(buf)

    def apply(self, block, offset, data, part=1.0):
        bs = self.block_size
        a = block * bs + offset
        f = self.f
        if data is None:
            n = int(bs * part)
            f.seek(a)
            while n > 0:
                k = min(n, _CHUNK)
                f.write(memoryview(self._erased)[:k])
                n -= k
            return
        n = int(len(data) * part)
        if n <= 0:
            return
        s = self._scratch
        f.seek(a)
        done = 0
        while done < n:  # NOR flash: programming can only clear bits
            k = min(n - done, _CHUNK)
            view = memoryview(s)[:k]
            f.seek(a + done)
            f.readinto(view)
            src = memoryview(data)[done : done + k]
            if view == memoryview(self._erased)[:k]:
                f.seek(a + done)
                f.write(src)
            else:
                for i in range(k):
                    s[i] &= src[i]
                f.seek(a + done)
                f.write(view)
            done += k

    def snapshot(self):
        self.f.seek(0)
        return self.f.read(self.size)

    def restore(self, snap):
        self.f.seek(0)
        self.f.write(snap)

    def close(self):
        self.f.close()
