"""Prints the requirements of optional extras of pyproject.toml, one a line,
so a Makefile target can install just those (``make flash``, ``make test``,
``make enclosure``): ``python3 scripts/extra.py test cad``."""
import sys
import tomllib

with open("pyproject.toml", "rb") as f:
    extras = tomllib.load(f)["project"]["optional-dependencies"]
print("\n".join(req for name in sys.argv[1:] for req in extras[name]))
