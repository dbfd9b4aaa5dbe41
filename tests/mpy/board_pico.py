"""boards/pico.py on the MicroPython unix port, over a fake `machine` (run by test_pico_board.py).

The fake records what the board does to the hardware: I2C transactions, pin levels and
modes, ADC reads, lightsleeps, PWM settings. The checks print `ok NAME`; a failed check is
counted and said (tests/mpy/verdict.py), and the script ends with `ALL OK` or exits with status 1.
"""

import path_setup  # noqa: F401  (sys.path, so that the script runs alone)

# isort: split

import sys

import vfs
from verdict import done, want

# --- the fake hardware ---------------------------------------------------------------------
LOG = []  # ("i2c", addr, bytes) / ("lightsleep", ms) / ("pin", id, mode) / ("pwm", pin id, freq, duty)
# / ("deepsleep",) / ("mem32", address, value written)
PRESSED = set()  # (row GPIO, col GPIO) pairs closed on the keypad, or button GPIOs held
LEVELS = {}  # GPIO -> level driven (outputs)
STATE = {"vbus": 1, "adc": 0}


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None, alt=-1):
        self.id = id
        self.mode = mode
        LOG.append(("pin", id, mode))
        if value is not None:
            LEVELS[id] = value

    def value(self, v=None):
        if v is not None:
            LEVELS[self.id] = v
            return None
        if self.id in ("WL_GPIO2", 24):
            return STATE["vbus"]
        for rc in PRESSED:  # a column reads low when a closed key joins it to a row held low
            if isinstance(rc, tuple) and rc[1] == self.id and LEVELS.get(rc[0], 1) == 0:
                return 0
        if self.id in PRESSED:
            return 0
        return 1


class I2C:
    def __init__(self, bus, sda=None, scl=None, freq=0):
        self.freq = freq

    def writeto(self, addr, buf):
        LOG.append(("i2c", addr, bytes(buf)))

    def writevto(self, addr, bufs):
        LOG.append(("i2c", addr, b"".join(bytes(b) for b in bufs)))


class ADC:
    def __init__(self, ch):
        self.ch = ch

    def read_u16(self):
        return STATE["adc"]


class PWM:
    def __init__(self, pin, freq=0, duty_u16=0):
        self.pin = pin.id
        self.f = freq
        self.d = duty_u16
        LOG.append(("pwm", self.pin, freq, duty_u16))

    def freq(self, f):
        self.f = f
        LOG.append(("pwm", self.pin, f, self.d))

    def duty_u16(self, d):
        self.d = d
        LOG.append(("pwm", self.pin, self.f, d))


def lightsleep(ms):
    LOG.append(("lightsleep", ms))


def deepsleep():
    LOG.append(("deepsleep",))


class _Mem:
    def __setitem__(self, addr, value):
        LOG.append(("mem32", addr, value))


mem32 = _Mem()


def unique_id():
    return b"\xe6\x61\x41\x04\x03\x27\x5a\x2b"


class _Machine:
    pass


machine = _Machine()
for _name in ("Pin", "I2C", "ADC", "PWM", "lightsleep", "deepsleep", "mem32", "unique_id"):
    setattr(machine, _name, globals()[_name])
sys.modules["machine"] = machine

# --- the checks ----------------------------------------------------------------------------
import pins  # noqa: E402

from boards import pico  # noqa: E402
from box import keys  # noqa: E402


def i2c_since(n):
    return [e[2] for e in LOG[n:] if e[0] == "i2c"]


def check_panel():
    pins.DISPLAY = "SSD1306"  # pins.py's reference is the SH1106 (check_sh1106)
    b = pico.Board()
    init = i2c_since(0)
    want(
        all(e[0] == "i2c" and e[1] == pins.DISPLAY_ADDR for e in LOG if e[0] == "i2c"),
        'all(e[0] == "i2c" and e[1] == pins.DISPLAY_ADDR for e in LOG if e[0] == "i2c")',
    )
    cmds = [x[1] for x in init if len(x) == 2 and x[0] == 0x80]
    want(cmds[0] == 0xAE and cmds[-1] == 0xAF, cmds)  # off while configuring, then on
    want(0x8D in cmds, "0x8D in cmds")  # SSD1306: charge pump
    data = [x for x in init if x[0] == 0x40]
    want(
        len(data) == 8 and all(len(x) == 129 and not any(x[1:]) for x in data),
        "len(data) == 8 and all(len(x) == 129 and not any(x[1:]) for x in data)",
    )  # RAM cleared
    b.display.fb.fill(0)
    want(b.display.show() == 1024, "b.display.show() == 1024")  # the first frame is sent whole
    n = len(LOG)
    b.display.fb.text("7", 8, 16, 1)  # page 2, columns 8-15
    sent = b.display.show()
    out = i2c_since(n)
    a = out[0]
    want(a[:2] == b"\x00\x21" and 8 <= a[2] and a[3] - a[2] + 1 == sent and a[4:] == b"\x22\x02\x02", out)
    want(out[1][0] == 0x40 and len(out[1]) == sent + 1, "out[1][0] == 0x40 and len(out[1]) == sent + 1")
    print("ok panel", sent)
    return b


def check_sh1106():
    pins.DISPLAY = "SH1106"
    n = len(LOG)
    b = pico.Board()
    init = i2c_since(n)
    data = [x for x in init if x[0] == 0x40]
    want(
        len(data) == 8 and all(len(x) == 133 for x in data), "len(data) == 8 and all(len(x) == 133 for x in data)"
    )  # all 132 columns cleared
    b.display.show()
    n = len(LOG)
    b.display.fb.fill_rect(0, 0, 3, 8, 1)
    b.display.show()
    out = i2c_since(n)
    want(out[0] == bytes((0x00, 0xB0, 2, 0x10)), out)  # page 0, column 0 + 2
    pins.DISPLAY = "SSD1306"
    print("ok sh1106")


def check_keys(b):
    want(b.scan() == keys.NONE, "b.scan() == keys.NONE")
    for r in range(4):
        for c in range(4):
            PRESSED.clear()
            PRESSED.add((pins.KEYPAD_ROWS[r], pins.KEYPAD_COLS[c]))
            got = b.scan()
            want(got == r * 4 + c, (r, c, got))
            want(
                all(LEVELS[g] == 1 for g in pins.KEYPAD_ROWS), "all(LEVELS[g] == 1 for g in pins.KEYPAD_ROWS)"
            )  # every row released again
    for name, g in pins.BUTTONS:
        PRESSED.clear()
        PRESSED.add(g)
        want(b.scan() == keys.code(name), name)
    PRESSED.clear()
    want(keys.NAMES[3] == "A" and keys.NAMES[12] == "*", 'keys.NAMES[3] == "A" and keys.NAMES[12] == "*"')
    print("ok keys")


def check_power(b):
    STATE["adc"] = 4500 * 65535 // (3266 * 3)  # the ADC's reference: 3.3 V less its offset
    mv = b.battery_mv()
    want(4490 <= mv <= 4500, mv)
    STATE["vbus"] = 1
    b._usb = None
    n = len(LOG)
    b.sleep_ms(5)
    want(
        not [e for e in LOG[n:] if e[0] == "lightsleep"], 'not [e for e in LOG[n:] if e[0] == "lightsleep"]'
    )  # never while on USB power
    STATE["vbus"] = 0
    b._usb = None
    want(not b.usb_powered(), "not b.usb_powered()")
    b.sleep_ms(5)
    want(LOG[-1] == ("lightsleep", 20), LOG[-1])
    want(b.unique_id() == unique_id(), "b.unique_id() == unique_id()")
    print("ok power", mv)


def check_wireless():
    pico._is_wireless = lambda: True
    b = pico.Board()
    want(b.vbus.id == "WL_GPIO2" and b.adc is None, 'b.vbus.id == "WL_GPIO2" and b.adc is None')
    n = len(LOG)
    STATE["adc"] = 3700 * 65535 // (3266 * 3)
    mv = b.battery_mv()
    pinlog = [e for e in LOG[n:] if e[0] == "pin"]
    want(pinlog[0] == ("pin", 25, Pin.OUT) and LEVELS[25] == 1, pinlog)  # wireless chip deselected
    want(pinlog[1] == ("pin", 29, Pin.IN) and pinlog[-1] == ("pin", 29, Pin.ALT), pinlog)  # GP29 given back
    want(3690 <= mv <= 3700, mv)
    pico._is_wireless = lambda: False
    print("ok wireless", mv)


def check_piezo(b):
    """A tone: PWM on the piezo's pin at once, off in a later sleep_ms past its length, and
    no lightsleep meanwhile (it would stop the PWM); none with PIEZO = None."""
    import time

    STATE["vbus"] = 0  # on battery: sleep_ms lightsleeps, except while a tone sounds
    b._usb = None
    n = len(LOG)
    t0 = time.ticks_ms()
    b.beep(3000, 30)
    want(
        time.ticks_diff(time.ticks_ms(), t0) < 10, "time.ticks_diff(time.ticks_ms(), t0) < 10"
    )  # returns at once: the key loop goes on
    pwm = [e for e in LOG[n:] if e[0] == "pwm"]
    want(pwm and all(e[1] == pins.PIEZO for e in pwm), pwm)
    want(pwm[-1][2] == 3000 and pwm[-1][3] > 0, pwm)
    ticks = 0
    while b.piezo.d:
        b.sleep_ms(5)
        ticks += 1
        if not want(ticks < 40, "the tone never ended"):
            break
    want(30 <= time.ticks_diff(time.ticks_ms(), t0) < 100, "30 <= time.ticks_diff(time.ticks_ms(), t0) < 100")
    want(not [e for e in LOG[n:] if e[0] == "lightsleep"], 'not [e for e in LOG[n:] if e[0] == "lightsleep"]')
    b.sleep_ms(5)  # silent again: back to lightsleep
    want(LOG[-1] == ("lightsleep", 20), LOG[-1])
    pins.PIEZO = None
    n = len(LOG)
    quiet = pico.Board()
    quiet.beep(3000, 30)
    quiet.sleep_ms(5)
    want(
        quiet.piezo is None and not [e for e in LOG[n:] if e[0] == "pwm"],
        'quiet.piezo is None and not [e for e in LOG[n:] if e[0] == "pwm"]',
    )
    pins.PIEZO = 20
    print("ok piezo", ticks)


def check_deepsleep(b):
    """At EMPTY: the piezo silent, the keypad's rows driven low, on an RP2040 a falling edge of
    each column and button and VBUS rising armed as the dormant wake (each stale edge cleared
    first), then machine.deepsleep(); on a Pico 2 (RP2350) no wake is armed."""
    n = len(LOG)
    pico._is_rp2040 = lambda: True
    b.deepsleep()
    log = LOG[n:]
    want(log[-1] == ("deepsleep",), log[-1:])
    want(("pwm", pins.PIEZO, b.piezo.f, 0) in log, "the piezo silent")
    want(all(LEVELS[g] == 0 for g in pins.KEYPAD_ROWS), [LEVELS.get(g) for g in pins.KEYPAD_ROWS])
    rows = [e for e in log if e[0] == "pin" and e[1] in pins.KEYPAD_ROWS]
    want([e[1] for e in rows] == list(pins.KEYPAD_ROWS) and all(e[2] == Pin.OPEN_DRAIN for e in rows), rows)
    inte = {}  # GPIO -> the wake's 4 bits, from the writes to DORMANT_WAKE_INTE's set alias
    cleared = set()
    for e in log:
        if e[0] != "mem32":
            continue
        addr, v = e[1], e[2]
        if 0x400140F0 <= addr < 0x40014100:  # INTR: a stale edge cleared
            base, target = (addr - 0x400140F0) * 2, cleared
        elif 0x40016160 <= addr < 0x40016170:  # 0x2000 + DORMANT_WAKE_INTE0
            base, target = (addr - 0x40016160) * 2, inte
        else:
            want(False, "a write to %x" % addr)
            continue
        for i in range(8):
            if (v >> 4 * i) & 15:
                if target is cleared:
                    cleared.add(base + i)
                else:
                    target[base + i] = (v >> 4 * i) & 15
    want_wake = {g: 4 for g in pins.KEYPAD_COLS}
    want_wake.update({g: 4 for _, g in pins.BUTTONS})
    want_wake[pins.VBUS_GPIO] = 8
    want(inte == want_wake, inte)
    want(cleared == set(want_wake), cleared)
    n = len(LOG)
    pico._is_rp2040 = lambda: False  # a Pico 2: no wake armed, sleeps until switched off
    b.deepsleep()
    want(not [e for e in LOG[n:] if e[0] == "mem32"] and LOG[-1] == ("deepsleep",), LOG[n:])
    for g in pins.KEYPAD_ROWS:  # released again, for the checks after
        LEVELS[g] = 1
    print("ok deepsleep", len(inte))


def check_app(b):
    """The app on the Pico board (its flash root moved to a RAM LittleFS): keys in, I2C out."""
    from vpico.blockdev import RamBlockDev

    bd = RamBlockDev(blocks=64, block_size=4096)
    vfs.VfsLfs2.mkfs(bd)
    vfs.mount(vfs.VfsLfs2(bd), "/pico")
    b.root = "/pico"
    from box.app import App

    STATE["vbus"] = 1
    b._usb = None
    app = App(b)
    t = [0]

    def ms():
        return t[0]

    b.ms = ms
    n = len(LOG)
    for key in ("ok",):  # "New match" on the home screen
        PRESSED.add(dict(pins.BUTTONS)[key])
        for _ in range(10):
            t[0] += 5
            app.poll()
        PRESSED.clear()
        for _ in range(10):
            t[0] += 5
            app.poll()
    want(app.screen is app.setup, app.screen)
    want(i2c_since(n), "no frame sent")
    print("ok app")


b = check_panel()
check_sh1106()
check_keys(b)
check_power(b)
check_wireless()
check_piezo(b)
check_deepsleep(pico.Board())
check_app(b)
done()
