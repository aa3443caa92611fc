# Each target sets up what it needs: Debian packages (as root; otherwise the
# exact command is printed), then the virtual environment in .venv.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
FONTS  := fonts-terminus-otb xfonts-base
READY  := $(VENV)/.ready

.PHONY: sim test bench soak flash install uninstall clean
sim: $(READY)
	$(BIN)/referee sim

test: $(READY)
	@scripts/need-apt chromium
	$(BIN)/pytest -n 2

bench: $(READY)
	$(BIN)/python -m bench

soak: $(READY)
	$(BIN)/pytest -m soak --soak

# Copying the firmware needs mpremote and nothing else: not the service's
# packages, the test tools or the fonts (heavy on a Pi Zero 2 W).
flash:
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q $$($(PYTHON) scripts/extra.py flash)
	$(BIN)/python -m firmware.deploy

install:
	sudo systemd/install.sh

uninstall:
	sudo systemd/uninstall.sh

$(READY): pyproject.toml
	@scripts/need-apt $(FONTS)
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -e '.[test]'
	@touch $@

clean:
	rm -rf $(VENV) build *.egg-info
