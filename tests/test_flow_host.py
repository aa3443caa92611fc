"""Issue 24, item 2: what a flow may ask of the box is one ``Protocol``
(``referee.box.flows.host.Host``), the box offers all of it, and the flows ask
for nothing else: no flow reaches into the box's fields, and none sets the
box's flow other than through ``goto``."""
from __future__ import annotations

import ast
import importlib

import pytest
from pathlib import Path

from referee.box.flows.host import Host

FLOWS = Path(__file__).resolve().parent.parent / "referee" / "box" / "flows"


def offered(host: type = Host) -> set[str]:
    return set(host.__annotations__) | {
        name for name, value in vars(host).items()
        if (callable(value) or isinstance(value, property)) and not name.startswith("_")}


def widened(path: Path) -> set[str]:
    """What a module of the flows' folder that is a part of the box, not a
    flow, asks beyond the Host: the members of the Protocol over ``Host``
    it declares (the taught pages' ``Classroom``)."""
    module = importlib.import_module(f"referee.box.flows.{path.stem}")
    return {name for value in vars(module).values()
            if isinstance(value, type) and value is not Host and Host in value.__mro__
            for name in offered(value)} if path.stem != "host" else set()


def asked(path: Path):
    """(line, name) for each ``box.name`` / ``self.box.name`` in a flow module."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.Attribute):
            continue
        owner = node.value
        if (isinstance(owner, ast.Name) and owner.id == "box"
                or isinstance(owner, ast.Attribute) and owner.attr == "box"
                and isinstance(owner.value, ast.Name) and owner.value.id == "self"):
            yield node.lineno, node.attr, isinstance(node.ctx, ast.Store)


def test_the_box_is_the_flows_host(table):
    assert isinstance(table.box, Host)
    assert {"act", "flash", "sound", "leave", "start_game", "roll", "remaining", "public_url", "goto"} <= offered()


def test_flows_ask_the_box_only_for_what_the_host_offers():
    members = offered()
    paths = sorted(FLOWS.glob("*.py"))
    assert len(paths) > 10   # the flows are where this looks
    beyond = [f"{path.name}:{line} box.{name}" for path in paths
              for line, name, _ in asked(path) if name not in members | widened(path)]
    assert beyond == []


def test_no_flow_sets_a_field_of_the_box():
    # The flow that takes the keys is the box's to set: a flow calls goto.
    written = [f"{path.name}:{line} box.{name}" for path in sorted(FLOWS.glob("*.py"))
               for line, name, store in asked(path) if store]
    assert written == []


def test_the_box_goes_where_goto_sends_it(table):
    from referee.box.flows import menu
    settings = menu.Settings(table.box)
    table.box.goto(settings)
    table.box.render()
    assert table.box.flow is settings
    assert table.box.shown["main"].title == settings.screens()["main"].title


def test_a_flows_modes_are_enums_and_no_page_is_found_by_its_name_as_text():
    # Modes dispatch through tables of their members, not getattr on strings:
    # a mode renamed in one place and not the other fails here, not at a table.
    import pathlib
    import re as _re
    flows = pathlib.Path(__file__).resolve().parent.parent / "referee" / "box" / "flows"
    for path in flows.glob("*.py"):
        assert not _re.search(r'getattr\(self, f"', path.read_text()), path.name
    from referee.box.flows import decipher, octiles, osmisifry
    for table in (decipher.Play._KEYS, decipher.Play._SCREENS):
        assert set(table) == set(decipher.Page)
    assert set(octiles.Play._ASKS) == set(octiles.Ask) - {octiles.Ask.NONE}
    assert set(osmisifry.Play._ASKS) == set(osmisifry.Ask) - {osmisifry.Ask.NONE}


def test_a_saved_mode_the_flow_does_not_have_is_refused(table):
    from referee.box.flows import osmisifry
    table.start("osmisifry", players=2)
    flow = table.box.flow
    assert isinstance(flow, osmisifry.Play) and flow.mode is osmisifry.Ask.NONE
    flow.restore({"mode": "end"})
    assert flow.mode is osmisifry.Ask.END          # the saved text comes back as the member
    with pytest.raises(ValueError):
        flow.restore({"mode": "nonsense"})
