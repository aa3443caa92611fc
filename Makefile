# Each target sets up what it needs: Debian packages (as root; otherwise the
# exact command is printed), then the virtual environment in .venv.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
FONTS  := fonts-terminus-otb xfonts-base
# sqlite3: the shell whose .recover saves what it can of a damaged database
APT    := $(FONTS) sqlite3
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

flash: $(READY)
	$(BIN)/pip install -q -e ".[flash]"
	$(BIN)/python -m firmware.deploy

install:
	sudo systemd/install.sh

uninstall:
	sudo systemd/uninstall.sh

$(READY): pyproject.toml
	@scripts/need-apt $(APT)
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -e '.[test]'
	@touch $@

clean:
	rm -rf $(VENV) build *.egg-info
