"""The referee box's and the dice module's enclosures, as code (build123d).

``python -m hardware.enclosure`` (``make enclosure``) writes an STL, a STEP
and a 3MF file of every printed part and test-fit coupon, lying as it prints,
with its filament and print time, and pictures of both boxes;
``python -m hardware.enclosure.seats`` says how much of each screen each seat
sees.
"""
