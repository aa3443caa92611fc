# Each target sets up what it needs: Debian packages (as root; otherwise the
# exact command is printed), then the virtual environment in .venv.  `make sim`
# installs the box and the simulator alone; the tests' tools and the
# enclosure's CAD library (build123d, with OpenCascade, scipy and sympy: most
# of a full .venv's size) are added by the targets that use them.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
FONTS  := fonts-terminus-otb xfonts-base fonts-dejavu-core
# DejaVu Sans engraves the dice module's bezel (make enclosure, the tests).
CADAPT := fonts-dejavu-core
# The stamps: the box and the simulator; then with the extras of pyproject.toml.
READY  := $(VENV)/.ready
TESTS  := $(VENV)/.test
CAD    := $(VENV)/.cad
# axe-core, the accessibility checker the browser tests inject into pages:
# from the npm registry into a folder of the project, when missing.
AXE    := build/npm/node_modules/axe-core/axe.min.js
WORKERS ?= $(shell echo $$(( $$(nproc) * 4 )))

.PHONY: sim test bench soak flash install uninstall clean enclosure pi-check image
sim: $(READY)
	$(BIN)/referee sim

# Four workers a core: much of the suite waits on real `referee run` and
# `referee web` processes, brokers and browsers keeping real time, and a
# worker waiting leaves its core to another.  On two cores, 4, 6 and 8
# workers ran the suite in 390, 365 and 342 s, for the same CPU time.
# loadgroup keeps a group (the enclosure's boxes; MicroPython's tools; the
# walk of every page, read by several checks) on one worker.  On a fresh
# clone each worker rewrote and compiled every test module's asserts anew,
# 7 s of CPU apiece: one collection first leaves them cached (one that fails
# is said by the run after it).  Python's bytecode cache stays on where the
# environment turns it off: each worker and each of the hundreds of
# processes the suite starts compiled the project anew.
# The lint and the types (ruff and mypy, pyproject.toml's [tool.ruff] and
# [tool.mypy]) come first, and either fails the run.
test: $(TESTS) $(AXE)
	$(BIN)/ruff check --quiet
	$(BIN)/mypy
	@scripts/need-apt chromium mosquitto shellcheck
	@scripts/micropython-tools
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest --collect-only -qq >/dev/null || true
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest -n $(WORKERS) --dist loadgroup

$(AXE):
	@command -v npm >/dev/null || scripts/need-apt npm  # nodejs from NodeSource brings its own npm
	npm install --no-save --no-audit --no-fund --prefix build/npm axe-core@4

bench: $(READY)
	$(BIN)/python -m bench

soak: $(TESTS)
	$(BIN)/pytest -m soak --soak

# Copying the firmware needs mpremote and nothing else: not the service's
# packages, the test tools or the fonts (heavy on a Pi Zero 2 W).
flash:
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q $$($(PYTHON) scripts/extra.py flash)
	$(BIN)/python -m firmware.deploy

# The printed parts (STL, STEP, 3MF; their filament and time) and the test-fit
# coupons, and the pictures of both boxes, in build/enclosure.
enclosure: $(CAD)
	$(BIN)/python -m hardware.enclosure --out build/enclosure

# The box on the Pi's platform without a Pi: ARM roots under qemu-user, the
# installer, the doctor, the tests and a real systemd boot (hardware/BUILD.md,
# "Checked on ARM").  Minutes and the registries: not part of make test.
pi-check: $(READY)
	scripts/pi-check

# A card to flash (hardware/BUILD.md, "Flash the card"): Raspberry Pi OS Lite
# named by BASE (an address with BASE_SHA256, or a downloaded .img.xz), or
# without BASE a stand-in of its layout from Debian's packages; customised
# under qemu-user and boot-tested as an arm64 VM.  Minutes, as root.
image:
	scripts/make-image $(if $(BASE),--base $(BASE)) $(if $(BASE_SHA256),--sha256 $(BASE_SHA256))

install:
	sudo systemd/install.sh

uninstall:
	sudo systemd/uninstall.sh

# The box's packages from the lock of this machine (requirements/, written
# by scripts/lock.py), each wheel checked against its sha256; then the
# project itself.  A machine without a lock takes pyproject.toml's ranges.
LOCK := requirements/lock-$(shell uname -m).txt
$(READY): pyproject.toml $(wildcard $(LOCK))
	@scripts/need-apt $(FONTS)
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@if [ -f $(LOCK) ]; then $(BIN)/pip install -q --require-hashes --only-binary=:all: -r $(LOCK); \
	else echo "no $(LOCK): the versions are pyproject.toml's ranges"; fi
	$(BIN)/pip install -q -e .
	@touch $@

# The extras alone, by their requirements: the project is in .venv already.
$(TESTS): $(READY)
	@scripts/need-apt $(CADAPT)
	$(BIN)/pip install -q $$($(PYTHON) scripts/extra.py test cad)
	@touch $@ $(CAD)

$(CAD): $(READY)
	@scripts/need-apt $(CADAPT)
	$(BIN)/pip install -q $$($(PYTHON) scripts/extra.py cad)
	@touch $@

clean:
	rm -rf $(VENV) build *.egg-info

# The How to play pages' screens (referee/web/how): drawn again by the
# virtual table from each game's scripted example, in the four languages.
.PHONY: how
how: $(TESTS)
	$(BIN)/python -m referee.tools.how
