"""The bought parts, as their makers draw them: every figure in millimetres,
with where it comes from.  A figure marked "typical" is from a common module
that has no maker's drawing; measure yours and change it here, the boxes
follow.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Board:
    """A circuit board with four mounting holes at (x, y) from its
    bottom-left corner, components on top."""
    name: str
    length: float
    width: float
    thickness: float
    holes: tuple[tuple[float, float], ...]
    hole_diameter: float
    height_above: float      # the tallest component above the board
    height_below: float      # solder joints, the microSD card
    header: tuple[float, float]   # centre of the 40-pin header (x, y)
    power: tuple[float, float, str]   # power socket: x along its edge, edge ("bottom")
    usb: tuple[float, float, str]     # the port the dice module's cable plugs into
    source: str
    sd: float = 28.0          # the microSD card's centre along the board's left edge (y), under the board
    cooler: bool = False      # takes a heatsink or the active cooler over its processor
    leds: tuple[tuple[float, float], ...] = ()   # the power and activity LEDs (x, y) on top


# Raspberry Pi mechanical drawings (raspberrypi.com, "Raspberry Pi 4 Model B
# mechanical drawing", "Raspberry Pi 5 mechanical drawing", "Raspberry Pi
# Zero 2 W mechanical drawing"): holes 2.7 mm for M2.5 at 3.5 mm from two
# edges, 58 mm apart along the board; 49 mm across on the 56 mm boards, 23 mm
# on the Zero.  The header's centre line is 3.5 mm from the top edge, its 20
# pin pairs centred 32.5 mm from the left edge.
PI_4 = Board(
    "Raspberry Pi 4 Model B", 85.0, 56.0, 1.4,
    ((3.5, 3.5), (61.5, 3.5), (3.5, 52.5), (61.5, 52.5)), 2.7,
    16.0, 2.0, (32.5, 52.5),
    power=(11.2, 0.0, "bottom"), usb=(85.0, 9.0, "right"),
    source="Raspberry Pi 4 Model B mechanical drawing; Ethernet jack 13.5 mm + board",
    sd=28.0, cooler=True, leds=((1.5, 44.0), (1.5, 47.5)),
)
PI_5 = Board(
    "Raspberry Pi 5", 85.0, 56.0, 1.4,
    ((3.5, 3.5), (61.5, 3.5), (3.5, 52.5), (61.5, 52.5)), 2.7,
    16.5, 2.0, (32.5, 52.5),
    power=(11.2, 0.0, "bottom"), usb=(85.0, 29.1, "right"),
    source="Raspberry Pi 5 mechanical drawing",
    sd=28.0, cooler=True, leds=((1.5, 44.0), (1.5, 47.5)),
)
PI_ZERO_2W = Board(
    "Raspberry Pi Zero 2 W", 65.0, 30.0, 1.4,
    ((3.5, 3.5), (61.5, 3.5), (3.5, 26.5), (61.5, 26.5)), 2.7,
    5.0, 1.5, (32.5, 26.5),
    power=(54.0, 0.0, "bottom"), usb=(41.4, 0.0, "bottom"),
    source="Raspberry Pi Zero 2 W mechanical drawing",
    sd=16.9,
)
PIS = {"4": PI_4, "5": PI_5, "zero2w": PI_ZERO_2W}

# A 2.54 mm header with female jumper housings on it: the pins stand 8.5 mm
# above the board (the Zero 2 WH's soldered header, the Pi 4/5's own), a
# jumper housing is 14 mm long, and the wires need about 10 mm to bend.
HEADER_PINS = 8.5
JUMPER_HOUSING = 14.0
WIRE_BEND = 10.0
# A microSD card (SD Association's physical specification): 11 x 15 x 1.0; in
# the socket under a Pi's left edge it stands out about 2.5 mm (typical).
MICROSD = (11.0, 15.0, 1.0)
MICROSD_OUT = 2.5
# Raspberry Pi Active Cooler (Raspberry Pi's product brief): for the Pi 5, on
# its two cooler holes over the processor, about 56 x 40 mm and 14 mm over the
# board with the fan; it draws air in from above, so 6 mm are kept free over
# it.  The same space takes any stick-on heatsink for a Pi 4.
COOLER = (56.0, 40.0, 14.0)
COOLER_AT = (4.0, 6.0)        # its corner from the board's bottom-left corner
COOLER_AIR = 6.0
COOLER_SOURCE = "Raspberry Pi Active Cooler product brief"
# The Pi 4's and 5's LEDs sit by the left edge under the header's first pins
# (typical: check yours; the Zero 2 W's single LED is at the far end and has
# no pipe).  A light pipe is a piece of clear 2.85 mm filament in a 3.1 mm
# hole, its inner end beside the LED.
LIGHT_PIPE = 2.85
HEADER_LENGTH = 51.0   # 20 pins at 2.54 mm
HEADER_WIDTH = 5.1     # 2 rows


@dataclass(frozen=True)
class Oled:
    """An OLED module: the glass panel on a carrier board with four holes.

    The glass sits between the holes; the pixels are not in the middle of the
    glass (its flex cable takes one edge), so they sit ``active_offset`` from
    the hole pattern's centre, towards the pins if positive.  Makers turn the
    panel either way on their boards, so the boxes take every offset in
    ``offset_range``; the test-fit coupon measures yours."""
    name: str
    board: tuple[float, float]          # carrier board, width x height
    board_thickness: float
    holes: tuple[float, float]          # hole centres, spacing x, y (centred)
    hole_diameter: float
    glass: tuple[float, float, float]   # panel outline w x h x thickness, centred on the holes
    active: tuple[float, float]         # the pixels, w x h
    active_offset: float                # the pixels' centre from the holes' centre, towards the pins
    offset_range: tuple[float, float]   # the offsets the boxes take
    standoff: float                     # glass front above the board's front (foam tape included)
    behind: float                       # pins and parts behind the board, jumper housings on the pins
    source: str
    holes_source: str


# 0.96" 128x64 SSD1306: the panel (UG-2864HSWEG01 datasheet): outline
# 26.70 x 19.26 x 1.45, active area 21.74 x 10.86.  The carrier board is the
# common 4-pin I2C one, which has no maker's drawing (typical): 27.3 x 27.8,
# four 2.0 mm holes whose centres common modules have about 23.5 x 23.8 apart
# (some sellers' drawings say 23.3), the glass between the holes, the pins
# along the top edge between the upper two.  On common modules the pixels'
# centre is 1.5 to 1.8 mm off the holes' centre, one way or the other.
OLED_096 = Oled(
    "0.96\" SSD1306", (27.3, 27.8), 1.2, (23.5, 23.8), 2.0,
    (26.7, 19.26, 1.45), (21.74, 10.86), 0.0, (-2.0, 2.0), 2.6, 6.0,
    source="UG-2864HSWEG01 panel datasheet",
    holes_source="common 4-pin I2C carrier board (typical)",
)
# 1.3" 128x64 SH1106: the panel (typical 1.3" SH1106 COG panel datasheet):
# outline 34.5 x 23.0 x 1.45, active area 29.42 x 14.7.  Carrier board
# (typical, the 4-pin I2C one): 35.4 x 33.5, four 3.0 mm holes at 30.4 x 28.5
# centres; the pixels 1.5 to 1.8 mm off the holes' centre, as on the 0.96".
OLED_13 = Oled(
    "1.3\" SH1106", (35.4, 33.5), 1.2, (30.4, 28.5), 3.0,
    (34.5, 23.0, 1.45), (29.42, 14.7), 0.0, (-2.0, 2.0), 2.6, 6.0,
    source="1.3\" SH1106 COG panel datasheet",
    holes_source="common 4-pin I2C carrier board (typical)",
)
OLEDS = {"0.96": OLED_096, "1.3": OLED_13}

# The M2 hex nut behind each team screen's holes (ISO 4032, M2): 4.0 mm
# across the flats, 1.6 mm high.  The screws through the wall, a spacer, the
# board and the nut plate are M2 x 12 (ISO 7045 pan head: 3.8 across, 1.3 high).
M2_NUT = (4.0, 1.6)
M2_NUT_SOURCE = "ISO 4032, M2"
TEAM_SCREW = 12.0


# 4x4 membrane keypad (Parallax 27899 datasheet): keypad 69 x 76 mm, 0.8 mm
# thick with its adhesive; ribbon 20 mm wide, 88 mm long, ending in an 8-pin
# 2.54 mm female connector.
KEYPAD = (69.0, 76.0, 0.8)
KEYPAD_RIBBON = (20.0, 88.0)
KEYPAD_SOURCE = "Parallax 27899 4x4 Matrix Membrane Keypad datasheet"


@dataclass(frozen=True)
class ArcadeButton:
    name: str
    hole: float          # the panel cut-out
    thread: float        # outside diameter of the body in the hole (threaded, or the snap clips pressed in)
    bezel: float         # the ring that sits on the panel's face
    bezel_height: float  # plunger and ring above the panel
    nut: float           # the plastic nut, across its flats' circle (0: none, it snaps in)
    nut_height: float
    body: float          # below the nut: body diameter
    depth: float         # below the panel: body with the microswitch
    panel: float | None  # the panel thickness its clips are made for (None: any its thread takes)
    source: str


# 30 mm screw-in arcade button with microswitch (typical, the common one sold
# as "30 mm"): 28 mm cut-out, M27.5 thread, 33 mm bezel, a 36 mm nut, 35 mm
# below the panel with the microswitch on; its thread takes any panel up to
# about 10 mm.
BUTTON_SCREW = ArcadeButton("30 mm screw-in arcade button", 28.0, 27.5, 33.0, 8.0, 36.0, 6.0,
                            24.0, 35.0, None,
                            source="typical 30 mm screw-in arcade button; 28 mm cut-out")
# Sanwa OBSF-30 (Sanwa Denshi's drawing): snaps into a 30 mm hole in a panel
# about 1.6 mm thick, its clips spreading under it; a 33 mm flange, about
# 31 mm deep below the panel with its own switch.  A printed wall is thicker,
# so the box thins it to 1.6 mm in a ring round the hole, from inside.
BUTTON_SNAP = ArcadeButton("Sanwa OBSF-30 snap-in button", 30.0, 29.6, 33.0, 8.0, 0.0, 0.0,
                           28.0, 31.0, 1.6,
                           source="Sanwa OBSF-30 drawing; 30 mm hole, 1.6 mm panel")
BUTTONS = {"screw": BUTTON_SCREW, "snap": BUTTON_SNAP}
# Round the snap-in button's hole the panel is thinned this wide, for its clips.
SNAP_RING = 38.0

# Raspberry Pi Pico datasheet, "Mechanical specification": 51 x 21 x 1.0,
# four 2.1 mm holes, 47.0 mm apart along the board (2.0 mm from the short
# edges) and 11.4 mm apart across it (4.8 mm from the long edges).
PICO = (51.0, 21.0, 1.0)
PICO_HOLES = ((2.0, 4.8), (49.0, 4.8), (2.0, 16.2), (49.0, 16.2))  # from the bottom-left corner
PICO_HOLE = 2.1
PICO_HEIGHT = 3.5      # the RP2040 and the micro-USB socket above the board
PICO_HEADERS = 2.5 + 8.5   # plastic and pins below, with headers soldered on
PICO_SOURCE = "Raspberry Pi Pico datasheet, mechanical drawing"

# MAX7219 8-digit module (typical, the red one with two 3641AS-type
# 4-digit 0.36" displays): board 82 x 15 x 1.6; each display 30.1 x 14.0 x
# 7.2 (3641AS datasheet), side by side in the middle; the 5-pin header at the
# left end, its pins pointing straight back from the board (the modules ship
# with a straight header; the jumper housings go on behind it).
MAX7219_BOARD = (82.0, 15.0, 1.6)
MAX7219_DISPLAY = (30.1, 14.0, 7.2)
MAX7219_DIGIT = (5.2, 9.2)     # one digit's segments, for the field labels
MAX7219_PITCH = 7.62           # digit pitch, 0.3"
MAX7219_BEHIND = 4.0           # the chip and resistors behind the board
MAX7219_DIGITS = 0.36           # digit height, inches: the guides take this module's board only
MAX7219_SOURCE = "3641AS 0.36\" 4-digit display datasheet; module typical"

# CUI CD-1206 sound transducer datasheet: 12.0 diameter, 9.5 high (the
# through-hole 12 mm magnetic buzzers are the same size).
BUZZER = (12.0, 9.5)
BUZZER_SOURCE = "CUI CD-1206 datasheet"

# Self-adhesive rubber feet (typical: the clear polyurethane bumpers sold on
# sheets): 10 mm across, 3 mm high, cylindrical with a flat adhesive face.
RUBBER_FOOT = (10.0, 3.0)

# Perfboard pieces cut from a 2.54 mm board, 1.6 mm thick.
PERFBOARD_THICKNESS = 1.6
# The 74AHCT125 in DIP-14 (TI datasheet, N package): 19.3 x 6.35 body,
# 7.62 row spacing, about 5 mm above the board.
AHCT125 = (19.3, 7.62, 5.1)
AHCT125_SOURCE = "TI SN74AHCT125 datasheet, N (PDIP-14) package"
# A 27 mm piezo disc: brass 27.0 diameter, 0.54 thick with its ceramic.
PIEZO = (27.0, 0.54)

# The moulded grips of USB plugs, behind the part the socket takes (the USB
# specifications fix the plug; the moulding is the cable maker's, typical):
# width, height, length.
USB_C_GRIP = (12.0, 6.5, 20.0)
USB_A_GRIP = (16.0, 8.0, 22.0)
MICRO_B_GRIP = (11.0, 7.0, 18.0)
USB_CABLE = 4.5   # round USB cable, outside diameter (typical 3.5-4.5)
