"""The dice module's firmware on the Pico: the hardware around firmware.module.

MicroPython runs this file at power-on.  Pins and parts are described in
hardware/dice-module.md; the protocol in PROTOCOL.md.  Ctrl-C stays enabled
(so mpremote can always stop the loop), and the host's REPL command ends the
loop cleanly.  Deploy with ``make flash``.

A fault must not leave the module at the REPL until someone unplugs it: an
exception in the loop is reported to the host (``FAULT <kind>``) and the
loop goes on; a burst of them resets the board, and so does a loop that
hangs, through the watchdog (firmware/watchdog.py).
"""
import binascii
import os
import select
import sys
import time

import machine

from firmware import dice, module, protocol, watchdog

SPI_SCK, SPI_TX, READOUT_CS = 18, 19, 17
BUTTON = 14
PIEZO = 15
BRIGHTNESS = 8  # of 15: readable in a lit room without glaring at night
TONES = {"tick": (2400, 6), "done": (1300, 120)}  # Hz, ms
READ_AT_ONCE = 64  # bytes per turn of the loop, so a chatty host cannot starve the button


class Clock:
    """Milliseconds since start that never wrap (ticks_ms wraps every few days)."""

    def __init__(self):
        self._last = time.ticks_ms()
        self.now = 0

    def update(self):
        t = time.ticks_ms()
        self.now += time.ticks_diff(t, self._last)
        self._last = t
        return self.now


class Readout:
    """The MAX7219 8-digit display, in the chip's own digit font (code B),
    so the Pico sends a digit and the chip draws it."""

    CODE = {" ": 0x0F, "-": 0x0A}

    def __init__(self):
        self._spi = machine.SPI(0, baudrate=1000000, sck=machine.Pin(SPI_SCK), mosi=machine.Pin(SPI_TX))
        self._cs = machine.Pin(READOUT_CS, machine.Pin.OUT, value=1)
        # test mode off, code B on all digits, scan all 8, brightness, wake up
        for register, value in ((0x0F, 0), (0x09, 0xFF), (0x0B, 7), (0x0A, BRIGHTNESS), (0x0C, 1)):
            self._set(register, value)

    def show(self, text):
        for i in range(module.DIGITS):
            char = text[i]
            # digit register 8 is the leftmost digit on the common modules
            self._set(module.DIGITS - i, self.CODE[char] if char in self.CODE else int(char))

    def off(self):
        self._set(0x0C, 0)

    def _set(self, register, value):
        self._cs.value(0)
        self._spi.write(bytes((register, value)))
        self._cs.value(1)


class Piezo:
    def __init__(self, clock):
        self._clock = clock
        self._pwm = machine.PWM(machine.Pin(PIEZO))
        self._pwm.duty_u16(0)
        self._until = None

    def play(self, kind):
        freq, ms = TONES[kind]
        self._pwm.freq(freq)
        self._pwm.duty_u16(32768)
        self._until = self._clock.now + ms

    def update(self, now):
        if self._until is not None and now >= self._until:
            self._pwm.duty_u16(0)
            self._until = None

    def off(self):
        self._pwm.deinit()


def serve(box, clock, button, debounce, piezo, stdin, poll):
    """The main loop, until the host asks for the REPL."""
    while box.running:
        watchdog.feed()
        now = clock.update()
        wait = 1  # ms: the button is sampled about a thousand times a second
        for _ in range(READ_AT_ONCE):
            if not poll.poll(wait):
                break
            wait = 0
            box.receive(stdin.read(1), now)
        if debounce.update(button.value() == 0, now):
            box.press(now)
        box.tick(now)
        piezo.update(now)


last_fault = None  # for whoever looks at the REPL after a reset: what went wrong


def main():
    global last_fault
    clock = Clock()
    readout = Readout()
    piezo = Piezo(clock)
    button = machine.Pin(BUTTON, machine.Pin.IN, machine.Pin.PULL_UP)
    debounce = module.Debounce()
    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    board = binascii.hexlify(machine.unique_id()).decode()
    box = module.Module(dice.Dice(os.urandom), stdout.write, readout.show, piezo.play, board)
    faults = module.Faults()
    watchdog.hold()  # the loop feeds it now: a loop that hangs resets the board
    box.start()
    try:
        while box.running:
            try:
                serve(box, clock, button, debounce, piezo, stdin, poll)
            except Exception as e:  # noqa: BLE001  not KeyboardInterrupt: Ctrl-C still stops it
                last_fault = e
                stdout.write(protocol.fault(type(e).__name__).encode())
                if faults.add(clock.update()):
                    machine.reset()
    finally:
        # Ctrl-C or the REPL command: leave the parts quiet and dark, and
        # keep the watchdog fed while the REPL has the board
        watchdog.release()
        piezo.off()
        readout.off()


main()
