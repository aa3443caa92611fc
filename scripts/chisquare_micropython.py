"""``python -m firmware.chisquare``, but the firmware's dice rolled by
MicroPython itself (its WebAssembly port; scripts/micropython-tools sets it
up), on random bytes from the host, as that port has no os.urandom.

    python scripts/chisquare_micropython.py [N] [SIDES]
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hal.sim.micropython_module import MicroPython  # noqa: E402

CODE = """import binascii, host, json
from firmware import chisquare
faces = chisquare.counts(lambda n: binascii.unhexlify(host.urandom(n)), %d, %d)
print(json.dumps([faces, chisquare.chi_square(faces)]))
"""


def main(argv):
    rolls = int(argv[1]) if len(argv) > 1 else 100000
    sides = int(argv[2]) if len(argv) > 2 else 8
    mp = MicroPython()
    try:
        faces, x = json.loads(mp.request("run", code=CODE % (rolls, sides))["printed"])
    finally:
        mp.close()
    print("%d rolls of a d%d on %s, bytes from the host" % (rolls, sides, mp.version.split(";")[1].strip()))
    print("faces: %s" % " ".join(map(str, faces)))
    print("chi-square: %.2f with %d degrees of freedom" % (x, sides - 1))


if __name__ == "__main__":
    main(sys.argv)
