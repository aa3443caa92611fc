# The dice module's boot.py: MicroPython runs it after every reset, soft
# ones included.  The watchdog outlives a soft reset (mpremote makes one
# before copying files), so a timer must feed it again at once; main.py
# takes over the feeding while its loop runs.  Deployed to the Pico's root.
try:
    from firmware import watchdog

    watchdog.start()
except ImportError:
    pass  # no firmware package (yet): nothing started the watchdog either
