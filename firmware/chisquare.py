"""How fair are the firmware's dice?  Rolls one die N times through
``firmware.dice.Dice`` and prints the count of each face and Pearson's
chi-square against equal chances.  Runs under CPython and MicroPython:

    python -m firmware.chisquare [N] [SIDES] [BIAS]
    mpremote mount . exec "from firmware import chisquare; chisquare.main(['', '100000'])"

With BIAS the bytes come from a model of MicroPython's
``os.urandom`` on the rp2 port: each byte shifts 8 ring-oscillator bits,
each 1 with probability BIAS, through an 8-bit feedback register
(polynomial 0xD5) kept from byte to byte.  Without it they come from the
interpreter's own ``os.urandom``: the host's, or on a Pico the ring
oscillator itself.

With SIDES - 1 degrees of freedom the statistic has that mean; for a d8
(7 degrees) a value above 14.07 happens by chance once in 20 runs, above
18.48 once in 100.
"""
import os
import sys

from firmware import dice


def rosc_model(bias, bits):
    """``rng(n)`` like the rp2 port's os.urandom, on raw bits from
    ``bits()`` (floats in [0, 1); a bit is 1 below ``bias``)."""
    state = [0]

    def rng(n):
        out = bytearray(n)
        for i in range(n):
            r = state[0]
            for _ in range(8):
                bit = 1 if bits() < bias else 0
                r = (((r << 1) | bit) ^ (0xD5 if r & 0x80 else 0)) & 0xFF
            state[0] = r
            out[i] = r
        return bytes(out)
    return rng


def counts(rng, rolls, sides):
    faces = [0] * sides
    die = dice.Dice(rng)
    for _ in range(rolls):
        faces[die.face(sides) - 1] += 1
    return faces


def chi_square(faces):
    expected = sum(faces) / len(faces)
    return sum([(c - expected) ** 2 / expected for c in faces])


def main(argv):
    rolls = int(argv[1]) if len(argv) > 1 else 100000
    sides = int(argv[2]) if len(argv) > 2 else 8
    if len(argv) > 3:
        import random
        random.seed(1)
        source = rosc_model(float(argv[3]), random.random)
        name = "rp2 os.urandom model, bits 1 with p=%s" % argv[3]
    else:
        source = os.urandom
        name = "os.urandom of %s" % sys.implementation.name
    faces = counts(source, rolls, sides)
    print("%d rolls of a d%d from %s" % (rolls, sides, name))
    print("faces: %s" % " ".join(["%d" % c for c in faces]))
    print("chi-square: %.2f with %d degrees of freedom" % (chi_square(faces), sides - 1))


if __name__ == "__main__":
    main(sys.argv)
