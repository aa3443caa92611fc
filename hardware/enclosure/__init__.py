"""The referee box's and the dice module's enclosures, as code (build123d).

``python -m hardware.enclosure`` (``make enclosure``) writes an STL and a STEP
file of every printed part, lying as it prints, and pictures of both boxes.
"""
