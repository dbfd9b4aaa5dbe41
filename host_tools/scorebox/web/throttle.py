"""The desk's password, guessed slowly (docs/web.md, Security): after TRIES wrong passwords
from one address, every try from it is refused, the right password too, until WAIT seconds
have passed since the last wrong one; each further wrong one doubles the wait, up to
LONGEST. A right one clears the address's count."""

import math
import time

TRIES = 5  # wrong passwords an address may give before it waits
WAIT = 30  # seconds, the first wait
LONGEST = 3600  # seconds, the longest wait
KEPT = 10000  # addresses remembered: the oldest are forgotten first, memory stays small


class Throttle:
    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.wrong = {}  # address -> (wrong passwords in a row, when the last was given)

    def wait(self, addr):
        """Whole seconds addr must still wait before a try counts (0: none)."""
        n, last = self.wrong.get(addr, (0, 0))
        if n < TRIES:
            return 0
        left = last + min(WAIT << min(n - TRIES, 7), LONGEST) - self.clock()  # 30 s, 60 s, ... an hour
        return max(0, math.ceil(left))

    def failed(self, addr):
        n, _ = self.wrong.pop(addr, (0, 0))
        if len(self.wrong) >= KEPT:
            del self.wrong[next(iter(self.wrong))]
        self.wrong[addr] = (n + 1, self.clock())

    def passed(self, addr):
        self.wrong.pop(addr, None)
