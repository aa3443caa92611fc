"""Prints the requirements of one optional extra of pyproject.toml, one a
line, so a Makefile target can install just those (``make flash``)."""
import sys
import tomllib

with open("pyproject.toml", "rb") as f:
    print("\n".join(tomllib.load(f)["project"]["optional-dependencies"][sys.argv[1]]))
