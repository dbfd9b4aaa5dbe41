# ruff: noqa: F821  (include, package and module are given by MicroPython's makemanifest.py)
# Freeze Scorebox into a custom MicroPython build for the Pico, to get the RAM back: frozen
# bytecode runs from flash instead of being loaded into the heap (the .mpy modules are most
# of the app's heap: docs/benchmarks.md, app_heap_peak_bytes).
#
#   cd micropython/ports/rp2      # MicroPython v1.29.0, the version the firmware is tested on
#   make BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/scorebox/firmware/manifest.py
#   (RPI_PICO_W, RPI_PICO2 ... for the other boards)
#
# Then copy the .uf2 to the Pico and put main.py and pins.py on its file system (both stay
# files: the Pico runs main.py from its flash, and pins.py stays editable):
#   mpremote cp firmware/main.py firmware/pins.py :
# Do not `scorebox deploy` onto a frozen build: files on the file system come first on
# sys.path ('' before '.frozen'), so the deployed .mpy would be used instead.
# tests/pc/test_deploy_lists.py checks that the frozen set is what `scorebox deploy` installs
# (scorebox/device/firmware.py reads that from this tree).

include("$(PORT_DIR)/boards/manifest.py")  # the board's usual frozen modules

package("scorebox_core", opt=3)  # the code shared with the PC: rules, records, frames
package("box", opt=3)  # the app, journal, sync link
package("boards", opt=3)  # the board contract and the Pico binding
module("ssd1306.py", base_path="lib", opt=3)  # pinned panel drivers (lib/MANIFEST.json)
module("sh1106.py", base_path="lib", opt=3)
