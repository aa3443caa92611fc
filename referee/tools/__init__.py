"""Tools beside the processes: ``sim`` (``referee sim``, the whole box in a
terminal) and ``doctor`` (``referee doctor``, is this box built and set up
right?), and ``how`` (``make how``, the How to play pages' pictures of the
box's screens).  The virtual table for tests is ``referee.testing``."""
