# ruff: noqa: F821  (freeze, include, require, package and module are given by MicroPython's makemanifest.py)
# Scorebox frozen into MicroPython for the Pico: one UF2 a maker flashes (hold BOOTSEL, drop the
# file on the RPI-RP2 drive), and the heap back: frozen bytecode runs from flash instead of being
# loaded into the heap (docs/benchmarks.md, app_heap_peak_bytes). `make uf2` builds it
# (tools/uf2.py, MicroPython v1.28.0, BOARD=RPI_PICO: docs/rp2.md); by hand:
#
#   cd micropython/ports/rp2
#   make BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/scorebox/firmware/manifest.py
#
# main.py and pins.py stay files on the Pico's file system (the Pico runs main.py from there,
# and pins.py stays editable): _boot.py writes them at the first boot from boards/defaults.py,
# which tools/uf2.py adds to the tree it builds from (a build by hand has none: copy them with
# `mpremote cp firmware/main.py firmware/pins.py :`). On a frozen box `scorebox deploy` copies
# only those two: files on the file system come first on sys.path ('' before '.frozen'), so a
# deployed .mpy would be used instead of the frozen module.
# tests/pc/test_deploy_lists.py checks that the frozen set is what `scorebox deploy` installs
# (scorebox/device/firmware.py reads that from this tree).

# The board's usual frozen modules (ports/rp2/boards/manifest.py of v1.28.0), with this _boot.py
# in place of the port's.
freeze("$(PORT_DIR)/modules", "rp2.py")
include("$(MPY_DIR)/extmod/asyncio")
require("onewire")
require("ds18x20")
require("dht")
require("neopixel")
module("_boot.py", opt=3)

package("scorebox_core", opt=3)  # the code shared with the PC: rules, records, frames
package("box", opt=3)  # the app, journal, sync link
package("boards", opt=3)  # the board contract and the Pico binding
module("ssd1306.py", base_path="lib", opt=3)  # pinned panel drivers (lib/MANIFEST.json)
module("sh1106.py", base_path="lib", opt=3)
