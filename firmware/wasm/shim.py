# Runs inside MicroPython (the WebAssembly port) and puts the dice module's
# firmware behind one call, handle(request) -> reply, JSON both ways.  What
# main.py does with the Pico's hardware, the host does here: the random
# source is the host's (the port has no os.urandom), the bytes for the USB
# port are collected and returned, the time comes with each request.
import binascii
import json

import host  # the JavaScript side: urandom(n) -> hex

from firmware import dice, module


class Queued:
    """The firmware's dice, but values the test queued come first."""

    def __init__(self, fair):
        self.fair = fair
        self.queue = []

    def roll(self, count, sides):
        values = []
        while len(values) < count and self.queue:
            values.append(self.queue.pop(0))
        return values + self.fair.roll(count - len(values), sides)


def urandom(n):
    return binascii.unhexlify(host.urandom(n))


written = []
rolls = Queued(dice.Dice(urandom))
box = None


def handle(request):
    global box
    req = json.loads(request)
    op, now = req["op"], req.get("now", 0)
    printed = []
    if op == "boot":
        box = module.Module(rolls, written.append, board=req["board"], animation_ms=req["animation_ms"])
        box.start()
    elif op == "receive":
        box.receive(binascii.unhexlify(req["data"]), now)
    elif op == "tick":
        box.tick(now)
    elif op == "press":
        box.press(now)
    elif op == "next":
        rolls.queue.extend(req["values"])
    elif op == "run":
        # a test's own code; what it prints comes back in the reply
        exec(req["code"], {"print": lambda *args: printed.append(" ".join([str(a) for a in args]))})
    out = b"".join(written)
    del written[:]
    return json.dumps({
        "out": binascii.hexlify(out).decode(),
        "display": box.display if box else "",
        "armed": list(box.armed) if box else None,
        "running": box.running if box else False,
        "wake_in": box.wake_in(now) if box else None,
        "printed": "\n".join(printed),
    })
