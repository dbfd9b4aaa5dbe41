# make demo: set everything up, key a match in on the virtual Pico, sync it to the PC,
#            list it and write the club's HTML report.
# make test: set everything up and run every test (CPython and MicroPython).
# make bench: measure; writes bench/results.json and prints a table.
# make enclosure: the printable case into out/enclosure/ (enclosure/README.md).
# make mutate: mutation scores of the shared core with the CPython tests (not in CI; docs/benchmarks.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium
POSTGRES := $(firstword $(wildcard /usr/lib/postgresql/*/bin/initdb) /usr/lib/postgresql/15/bin/initdb)
ARM_GCC := /usr/bin/arm-none-eabi-gcc

RP2 := host_tools/scorebox/sim/rp2
RP2_STAMP := $(RP2)/node_modules/.installed

.PHONY: demo test bench lint wiring clean enclosure uf2

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[sim,test,enclosure]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/scorebox replay docs/samples/seed-example.ttb
	$(BIN)/scorebox demo --out out/demo

# The emulated Pico's harness (docs/rp2.md): rp2040js from npm, pinned by package-lock.json.
$(RP2_STAMP): $(RP2)/package.json $(RP2)/package-lock.json
	npm ci --prefix $(RP2) --no-audit --no-fund --loglevel=error >/dev/null
	touch $(RP2_STAMP)

# The report tests open the HTML report in Debian's headless Chromium: installed once, quietly
# (apt-get's output goes to a log), with one line first and one clear line if it cannot be.
$(CHROMIUM):
	@echo "make test: installing Chromium with apt-get, once: the report tests open the HTML report in it"
	@command -v apt-get >/dev/null || { echo "make test: no apt-get here: install Chromium yourself (the report tests need it)"; exit 1; }
	@{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; } >$(VENV)/chromium-install.log 2>&1 \
	  || { echo "make test: Chromium could not be installed (as root? see $(VENV)/chromium-install.log): the report tests need it"; exit 1; }

# The store's tests on PostgreSQL (docs/postgres.md) start Debian's server themselves
# (tests/support/pgserver.py): installed as Chromium is.
$(POSTGRES):
	@echo "make test: installing PostgreSQL with apt-get, once: the store's tests run on it too"
	@command -v apt-get >/dev/null || { echo "make test: no apt-get here: install PostgreSQL yourself (the store's tests on it skip)"; exit 1; }
	@{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql; } >$(VENV)/postgres-install.log 2>&1 \
	  || { echo "make test: PostgreSQL could not be installed (as root? see $(VENV)/postgres-install.log)"; exit 1; }

# The Pico's MicroPython with the box frozen in (docs/rp2.md), from the sources in
# SCOREBOX_MICROPY_SRC (without it, tools/uf2.py says in one line where to get them), into
# out/; cached by the hash of its inputs outside the clone. Its toolchain is Debian's, installed
# as Chromium is.
$(ARM_GCC):
	@echo "make uf2: installing the Pico's toolchain (gcc-arm-none-eabi, cmake) with apt-get, once"
	@command -v apt-get >/dev/null || { echo "make uf2: no apt-get here: install gcc-arm-none-eabi, its newlib and cmake yourself"; exit 1; }
	@{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q gcc-arm-none-eabi libnewlib-arm-none-eabi \
	  libstdc++-arm-none-eabi-newlib cmake gcc g++ make; } >$(VENV)/arm-gcc-install.log 2>&1 \
	  || { echo "make uf2: the toolchain could not be installed (as root? see $(VENV)/arm-gcc-install.log)"; exit 1; }

uf2: $(STAMP) $(if $(SCOREBOX_MICROPY_SRC),$(ARM_GCC))
	@$(BIN)/python tools/uf2.py out

# With SCOREBOX_MICROPY_SRC set, the tests run the emulated Pico on the frozen image too.
# Two workers (pytest-xdist), each test file wholly on one (an emulated tier's file boots its
# emulator once), the longest folders first (tests/conftest.py): a CI machine's two cores run
# two at once. TEST_WORKERS=0: one process.
TEST_WORKERS ?= 2
test: $(STAMP) $(CHROMIUM) $(POSTGRES) $(RP2_STAMP) $(if $(SCOREBOX_MICROPY_SRC),uf2)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile

bench: $(STAMP) $(RP2_STAMP) $(if $(SCOREBOX_MICROPY_SRC),uf2)
	$(BIN)/python bench/run.py

lint: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

wiring: $(STAMP)
	$(BIN)/python tools/wiring.py docs

# The printable case (STL + STEP, both key layouts) into out/enclosure/, and its pictures
# into enclosure/pictures/ (committed: the READMEs show them).
enclosure: $(STAMP)
	$(BIN)/python -m enclosure.build out/enclosure

clean:
	rm -rf $(VENV) bench/results.json bench/mutation.json .pytest_cache .hypothesis $(RP2)/node_modules

# A sampled mutation run: three samples of 30 mutants a module, the worst reported; most of an
# hour on 2 busy cores (docs/benchmarks.md); writes bench/mutation.json (tools/mutate.py).
.PHONY: mutate
mutate: $(STAMP)
	nice $(BIN)/python tools/mutate.py --sample 30 --seed 1 --seed 2 --seed 3
