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

RP2 := host_tools/scorebox/sim/rp2
RP2_STAMP := $(RP2)/node_modules/.installed

.PHONY: demo test bench lint wiring clean enclosure

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

test: $(STAMP) $(CHROMIUM) $(RP2_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest

bench: $(STAMP) $(RP2_STAMP)
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
	rm -rf $(VENV) bench/results.json .pytest_cache .hypothesis $(RP2)/node_modules

# A sampled mutation run, a few minutes; writes bench/mutation.json (tools/mutate.py).
.PHONY: mutate
mutate: $(STAMP)
	nice $(BIN)/python tools/mutate.py --sample 30 --seed 1
