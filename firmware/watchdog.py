"""The RP2040's hardware watchdog, for the dice module (Pico only).

Once started the watchdog cannot be stopped, not even by a soft reset, and
it resets the board unless fed every ``TIMEOUT_MS``.  The main loop feeds
it itself (``hold``), so a loop that hangs restarts the board.  Whenever
no main loop runs (at the REPL, while mpremote copies files after its soft
reset) a timer feeds it (``release``), so the REPL stays usable.  boot.py
starts it: MicroPython runs boot.py after every reset, soft ones included,
so the timer is back before mpremote's first command.
"""
import machine

TIMEOUT_MS = 8000  # the RP2040's longest is 8388
FEED_MS = 1000

_wdt = None
_timer = None


def start():
    global _wdt
    if _wdt is None:
        _wdt = machine.WDT(timeout=TIMEOUT_MS)
    release()


def feed():
    if _wdt is not None:
        _wdt.feed()


def hold():
    """From now on the caller feeds the watchdog, or the board resets."""
    global _timer
    if _wdt is None:
        start()
    if _timer is not None:
        _timer.deinit()
        _timer = None
    feed()


def release():
    """A timer feeds the watchdog: no main loop is running."""
    global _timer
    if _timer is None:
        _timer = machine.Timer(-1, mode=machine.Timer.PERIODIC, period=FEED_MS, callback=_feed)
    feed()


def _feed(timer):  # a soft timer: runs between bytecodes, at the REPL too
    feed()
