"""The devices a configuration asks for, real or simulated.

The simulated ones are the real drivers on simulated parts: ``Keys`` and
``Buzzer`` on gpiozero mock pins wired like the box, luma.oled's ``ssd1306``
on a simulated controller, the dice driver on a simulated module.  So the
code under test is the code on the table.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hal.buzzer import Buzzer
from hal.dice import Dice, SoftwareDice
from hal.display import Display
from hal.keys import Keys
from referee.config import BUZZER_OCTAVES, DISPLAYS, Config

if TYPE_CHECKING:   # the simulated parts are imported only by a configuration that asks for them
    from hal.sim.dice_module import SimulatedDiceModule
    from hal.sim.pins import SimulatedPins


@dataclass
class Devices:
    keys: Keys
    buzzer: Buzzer | None
    displays: dict[str, Display]
    dice: Dice
    pins: SimulatedPins | None = None         # the simulated pins, if any
    panels: dict = field(default_factory=dict)  # the simulated controllers
    dice_module: SimulatedDiceModule | None = None  # the simulated dice module

    def close(self) -> None:
        self.keys.close()
        if self.buzzer:
            self.buzzer.close()
        for display in self.displays.values():
            display.close()
        self.dice.close()
        if self.dice_module is not None:
            self.dice_module.close()


def build(config: Config, clock, on_key) -> Devices:
    kp = config.keypad
    teams = {"team1": kp.team1, "team2": kp.team2}
    pins: SimulatedPins | None = None
    if kp.driver == "sim" or config.buzzer.driver == "sim":
        from hal.sim.pins import SimulatedPins
        pins = SimulatedPins(kp.rows, kp.cols, teams, config.buzzer.pin if config.buzzer.driver == "sim" else None)
    factory = pins.factory if pins is not None and kp.driver == "sim" else None
    keys = Keys(kp.rows, kp.cols, teams, clock, on_key, pin_factory=factory)
    buzzer = None
    if config.buzzer.driver != "none":
        buzzer = Buzzer(config.buzzer.pin, clock, config.buzzer.band, BUZZER_OCTAVES,
                        pin_factory=pins.factory if pins is not None and config.buzzer.driver == "sim" else None)
    panels: dict = {}
    displays = {}
    for name in DISPLAYS:
        cfg = getattr(config.displays, name)
        if cfg.driver == "none":
            continue
        make = panel_factory(cfg, panels, name)
        displays[name] = Display(name, make, clock.call_later, cfg.controller, cfg.rotate)
    dice, module = _dice(config, clock)
    return Devices(keys, buzzer, displays, dice, pins, panels, module)


# Drivers are imported inside the functions that make them (lazily), so a
# process loads only the ones its configuration names: a box no simulator,
# the simulator no I2C or SPI bus, the software dice no pyserial.


def controller(name: str):
    """luma's device class for a ``controller`` the configuration allows."""
    from luma.oled.device import sh1106, ssd1306
    return {"ssd1306": ssd1306, "sh1106": sh1106}[name]


def panel_factory(cfg, panels: dict, name: str):
    kind = controller(cfg.controller)
    if cfg.driver == "sim":
        from hal.sim.oled import SimulatedSSD1306
        panels[name] = bus = SimulatedSSD1306()
        return lambda: kind(bus, rotate=cfg.rotate)

    def make():
        from luma.core.interface.serial import i2c, spi
        if cfg.driver == "i2c":
            interface = i2c(port=cfg.bus, address=cfg.address)
        else:
            interface = spi(port=cfg.bus, device=cfg.device, gpio_DC=cfg.dc, gpio_RST=cfg.reset)
        device = kind(interface, rotate=cfg.rotate)
        device.contrast(cfg.contrast)
        return device
    return make


def _dice(config: Config, clock):
    if config.dice.driver == "software":
        return SoftwareDice(), None
    if config.dice.driver == "serial":
        from hal.dice_serial import SerialDice
        return SerialDice(config.dice.port, clock=clock.monotonic), None
    from hal.sim.dice_module import SimulatedDiceModule
    from hal.dice_serial import SerialDice
    module = SimulatedDiceModule()
    module.start()
    return SerialDice(module.port, clock=clock.monotonic), module
