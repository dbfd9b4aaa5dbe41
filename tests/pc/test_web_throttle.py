"""The desk's login throttle (web/throttle.py) at its documented numbers (docs/web.md,
Security): 5 wrong passwords before a wait, 30 s, doubled per wrong one after a wait, an hour
at most; a new address waits nothing; 10,000 addresses are remembered, the oldest forgotten
first. The numbers are written out here, not read from the module: a changed limit fails."""

from scorebox.web.throttle import Throttle


class Clock:
    def __init__(self):
        self.now = 5000.0

    def __call__(self):
        return self.now


def test_an_address_never_wrong_waits_nothing():
    th = Throttle(Clock())
    assert th.wait("10.0.0.1") == 0 and type(th.wait("10.0.0.1")) is int


def test_four_wrong_passwords_cost_nothing_the_fifth_costs_30_seconds():
    th = Throttle(Clock())
    for _ in range(4):
        th.failed("a")
    assert th.wait("a") == 0
    th.failed("a")
    assert th.wait("a") == 30


def test_the_wait_counts_down_to_zero_and_stays_there():
    clock = Clock()
    th = Throttle(clock)
    for _ in range(5):
        th.failed("a")
    clock.now += 29.5
    assert th.wait("a") == 1  # whole seconds, rounded up
    clock.now += 0.5
    assert th.wait("a") == 0
    clock.now += 1000
    assert th.wait("a") == 0


def test_each_wrong_one_after_a_wait_doubles_it_up_to_an_hour():
    clock = Clock()
    th = Throttle(clock)
    for _ in range(5):
        th.failed("a")
    waits = [th.wait("a")]
    for _ in range(9):
        th.failed("a")
        waits.append(th.wait("a"))
    assert waits == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600, 3600]


def test_a_right_password_clears_the_count():
    th = Throttle(Clock())
    for _ in range(4):
        th.failed("a")
    th.passed("a")
    for _ in range(4):
        th.failed("a")
    assert th.wait("a") == 0


def test_ten_thousand_addresses_are_kept_then_the_oldest_is_forgotten():
    th = Throttle(Clock())
    for _ in range(5):
        th.failed("first")
    for n in range(1, 10000):
        th.failed("10.%d.%d.1" % (n // 256, n % 256))
    assert len(th.wrong) == 10000 and th.wait("first") == 30
    th.failed("one more")
    assert len(th.wrong) == 10000 and th.wait("first") == 0
    assert th.wrong["one more"][0] == 1 and th.wrong["10.0.1.1"][0] == 1
