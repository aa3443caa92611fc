"""The dice module's wire format, both directions, in one place.

PROTOCOL.md beside this file is the reference; this module is its only
implementation, shared by the firmware (parse commands, format replies) and
the host driver (format commands, parse replies).  It runs unchanged under
MicroPython and CPython: no typing, no dataclasses, plain tuples.  What the
host's type checker needs of it is in type comments, which MicroPython skips.

Parsed commands and replies are tuples whose first item is the word:

    ("HELLO",)                          ("HELLO", protocol, firmware, board)
    ("ROLL", id, count, sides)          ("RESULT", id, values)
    ("ARM", count, sides)               ("ARMED", count, sides)
    ("REPL",)                           ("BYE",)
                                        ("BUTTON", count, sides, values)
                                        ("ERR", id or None, reason)
                                        ("FAULT", kind)

``values`` is a tuple of ints.  Anything else raises ``ProtocolError``.
"""

PROTOCOL = 1
MAX_LINE = 64  # bytes, newline included: the firmware's longest line, its HELLO, has 31
MAX_ID = 99999999
MAX_DICE = 4
MIN_SIDES = 2
MAX_SIDES = 20

# The reasons an ERR line gives.
UNKNOWN = "unknown-command"
RANGE = "out-of-range"
MALFORMED = "malformed"
BUSY = "busy"


class ProtocolError(Exception):
    """A line that is not protocol.  ``reason`` is one of the four above; ``id`` is
    the request id when the line had a readable one, so the error can name it."""

    def __init__(self, reason, id=None):
        # type: (str, int | None) -> None
        super().__init__(reason)
        self.reason = reason
        self.id = id


# --- host -> module ---------------------------------------------------------

def hello():
    # type: () -> str
    return "HELLO\n"


def roll(id, count, sides):
    # type: (int, int, int) -> str
    return "ROLL %d %s\n" % (id, _dice(count, sides))


def arm(count, sides):
    # type: (int, int) -> str
    return "ARM %s\n" % _dice(count, sides)


def repl():
    return "REPL\n"


def parse_command(line):
    """Reads one line from the host (str, without its newline)."""
    words = line.split()
    if not words:
        raise ProtocolError(MALFORMED)
    word = words[0].upper()  # a person typing in a terminal may not shout
    args = words[1:]
    if word in ("HELLO", "REPL"):
        _arity(args, 0)
        return (word,)
    if word == "ROLL":
        id = _id(args[0]) if args else None
        _arity(args, 2, id)
        count, sides = _parse_dice(args[1], id)
        return ("ROLL", id, count, sides)
    if word == "ARM":
        _arity(args, 1)
        count, sides = _parse_dice(args[0])
        return ("ARM", count, sides)
    raise ProtocolError(UNKNOWN)


# --- module -> host ---------------------------------------------------------

def hello_reply(firmware, board):
    return "HELLO %d %s %s\n" % (PROTOCOL, firmware, board)


def result(id, values):
    return "RESULT %d %s\n" % (id, _values(values))


def armed(count, sides):
    return "ARMED %s\n" % _dice(count, sides)


def button(count, sides, values):
    return "BUTTON %s %s\n" % (_dice(count, sides), _values(values))


def error(id, reason):
    return "ERR %s %s\n" % ("-" if id is None else "%d" % id, reason)


def bye():
    return "BYE\n"


def fault(kind):
    """The firmware raised ``kind`` (an exception's class name) and carries on."""
    word = "".join([c for c in kind if c.isalpha() or c.isdigit() or c == "_"])[:MAX_LINE - 8]
    return "FAULT %s\n" % (word or "unknown")


def parse_reply(line):
    # type: (str) -> tuple
    """Reads one line from the module (str, without its newline).  Values are
    checked against the dice they claim to be; a RESULT's values can only be
    checked by whoever knows what was asked for."""
    words = line.split()
    if not words:
        raise ProtocolError(MALFORMED)
    word, args = words[0], words[1:]
    if word == "HELLO":
        _arity(args, 3)
        return ("HELLO", _number(args[0], 3), args[1], args[2])
    if word == "RESULT":
        if not 1 <= len(args) - 1 <= MAX_DICE:
            raise ProtocolError(MALFORMED)
        id = _id(args[0])
        return ("RESULT", id, _parse_values(args[1:], MAX_SIDES, id))
    if word == "ARMED":
        _arity(args, 1)
        return ("ARMED",) + _parse_dice(args[0])
    if word == "BUTTON":
        if not args:
            raise ProtocolError(MALFORMED)
        count, sides = _parse_dice(args[0])
        if len(args) - 1 != count:
            raise ProtocolError(MALFORMED)
        return ("BUTTON", count, sides, _parse_values(args[1:], sides))
    if word == "ERR":
        _arity(args, 2)
        # any reason is kept: a newer firmware may know more of them
        return ("ERR", None if args[0] == "-" else _id(args[0]), args[1])
    if word == "BYE":
        _arity(args, 0)
        return ("BYE",)
    if word == "FAULT":
        _arity(args, 1)
        return ("FAULT", args[0])
    raise ProtocolError(UNKNOWN)


# --- pieces -----------------------------------------------------------------

def _dice(count, sides):
    return "%dd%d" % (count, sides)


def _values(values):
    return " ".join(["%d" % v for v in values])


def _arity(args, n, id=None):
    if len(args) != n:
        raise ProtocolError(MALFORMED, id)


def _number(word, digits, id=None):
    # isdigit alone would let a flood of digits become a huge int
    if not 1 <= len(word) <= digits or not word.isdigit():
        raise ProtocolError(MALFORMED, id)
    return int(word)


def _id(word):
    return _number(word, 8)


def _parse_dice(word, id=None):
    parts = word.lower().split("d")
    if len(parts) != 2:
        raise ProtocolError(MALFORMED, id)
    count = _number(parts[0], 2, id)
    sides = _number(parts[1], 2, id)
    if not 1 <= count <= MAX_DICE or not MIN_SIDES <= sides <= MAX_SIDES:
        raise ProtocolError(RANGE, id)
    return count, sides


def _parse_values(words, sides, id=None):
    values = tuple([_number(w, 2, id) for w in words])
    for v in values:
        if not 1 <= v <= sides:
            raise ProtocolError(RANGE, id)
    return values
