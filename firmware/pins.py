"""The pin map: the one file a maker edits for other wiring.

It is the single source of truth for the pins: the Pico board (boards/pico.py) reads it, and
so do the wiring table and diagram in docs/hardware.md (`python tools/wiring.py docs`
draws them from this file, and a test fails when the committed docs differ). Numbers are
GPIO numbers (GPn), not the Pico's physical pin numbers; the wiring table gives both.

Plain constants only (no imports), so the PC tools can read it with CPython too.
"""

# --- display: a 128x64 OLED on I2C -----------------------------------------------------------
# The box's digits are 16 px tall; the angle one subtends at an archer's 65 cm is what makes
# it readable (ISO 9241-3 asks for at least 16 arcmin, 20-22 preferred):
#   "SH1106"   1.3"  (0.23 mm pixels): 19.5 arcmin, the reference this box is built for
#   "SSD1309"  2.42" (0.43 mm pixels): about 36 arcmin, for a tired eye or a longer reach
#   "SSD1306"  0.96" (0.17 mm pixels): 14 arcmin, under the minimum; it still works
DISPLAY = "SH1106"  # "SH1106", "SSD1309" or "SSD1306"
DISPLAY_ADDR = 0x3C  # 0x3C on most modules, 0x3D when the address jumper is moved
DISPLAY_FLIP = False  # True: rotate the picture 180 degrees (the panel mounted upside down)
I2C_BUS = 0  # I2C0: SDA on GP0/4/8/12/16/20/28, SCL on GP1/5/9/13/17/21 (I2C1: SDA 2/6/10/14/18/26)
I2C_SDA = 4
I2C_SCL = 5
I2C_FREQ = 400_000  # Hz: a full frame is then about 23 ms; the app sends only what changed

# --- keys -----------------------------------------------------------------------------------
# Either set or both may be wired; an empty tuple means "not fitted". docs/keys.md.
LAYOUT = "keypad"  # what the box shows help for: "keypad" (4x4) or "buttons" (six)
# A key counts at the first scan that reads it down (0 ms): its screen comes 20 ms sooner.
# 20: a key must read down 20 ms first, for a keypad or buttons whose scan sees glitches.
KEY_PRESS_MS = 0
# 4x4 membrane keypad, rows top to bottom (1 2 3 A / 4 5 6 B / 7 8 9 C / * 0 # D), columns left
# to right. Rows are driven low one at a time (open drain); columns have pull-ups.
KEYPAD_ROWS = (6, 7, 8, 9)
KEYPAD_COLS = (10, 11, 12, 13)
# Six push buttons, each from its GPIO to GND (internal pull-ups): (key name, GPIO).
BUTTONS = (
    ("up", 14),
    ("down", 15),
    ("left", 16),
    ("right", 17),
    ("ok", 18),
    ("back", 19),
)

# --- power ----------------------------------------------------------------------------------
# "3xAA" (alkaline or NiMH) or "lipo" (one cell, through a charger module). The thresholds
# follow the box's Settings, Cells (alkaline, NiMH, LiPo); until it is set, this: 3xAA alkaline.
BATTERY = "3xAA"
BATTERY_GPIO = 29  # VSYS/3 on the Pico's own divider: ADC3. Fixed by the board, not a wire.
BATTERY_DIVIDER = 3
# USB power sense: GP24 (VBUS sense) on the Pico and Pico 2. On a Pico W / Pico 2 W the
# wireless chip has it (WL_GPIO2); boards/pico.py picks that by itself.
VBUS_GPIO = 24

# --- optional -------------------------------------------------------------------------------
# A piezo sounder (no oscillator inside, reads open on a meter: TDK PS1240 or alike) from this
# GPIO through 220 Ohm to GND, driven by PWM; None when not fitted: silent. Never a magnetic
# buzzer straight on the pin: its coil wants 80-200 mA, the pin gives 12 mA (docs/hardware.md).
PIEZO = 20
