"""docs/architecture.md names each step of the key -> pixel and event ->
phone paths by its function: every name it gives is there in the code."""
from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
PACKAGES = ("games", "hal", "referee")


def named(text: str) -> list[str]:
    """The dotted names of the project the text gives in backticks."""
    return [name for name in re.findall(r"`([A-Za-z_][\w.]*)`", text) if name.split(".")[0] in PACKAGES]


def found(name: str) -> bool:
    """Whether ``name`` is a module, or a name inside one, of the project."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for part in parts[cut:]:
            if not hasattr(found, part):
                return False
            found = getattr(found, part)
        return True
    return False


def scripts(text: str) -> list[tuple[str, str]]:
    """The functions of the pages' scripts it names: (`a/file.js`, `name`)."""
    return re.findall(r"`([\w/]+\.js)`, `(\w+)`", text)


def test_every_step_of_both_paths_is_a_function_that_exists():
    text = DOC.read_text()
    paths = {title: part for title, part in re.findall(r"^## ([^\n]+)\n(.*?)(?=^## |\Z)", text, re.M | re.S)}
    assert set(paths) == {"Key → pixel", "Event → phone"}
    for title, part in paths.items():
        steps = re.findall(r"^\d+\. ", part, re.M)
        assert len(steps) >= 5, title
        missing = [name for name in named(part) if not found(name)]
        assert not missing, f"{title}: {missing}"
    for path, function in scripts(text):
        assert re.search(rf"\bfunction {function}\(", (ROOT / path).read_text()), (path, function)


def test_the_check_finds_a_name_the_code_does_not_have():
    assert found("referee.box.coordinator.Box.act") and found("hal.display")
    assert not found("referee.box.coordinator.Box.act_and_draw")
    assert not found("referee.box.no_such_module.Box")
    assert named("then `referee.box.coordinator.Box.render`, `Screen` and `hal.keys`") == [
        "referee.box.coordinator.Box.render", "hal.keys"]
