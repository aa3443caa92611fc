"""docs/rulings.md stays true: every rule the code decides by its own
[ruling] is listed there under its tag (issue 20, item 8)."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
TAG = re.compile(r"\[([A-Z]{2}-\d+)\]")


def code_rulings() -> dict[str, str]:
    """Tag → where, for every line of the games that carries [ruling]."""
    found = {}
    for path in sorted((ROOT / "games").glob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            if "[ruling]" in line:
                # The tag on the line, else the nearest one just above it
                # (a docstring's paragraph).
                near = [TAG.findall(text) for text in reversed(lines[max(0, number - 4):number])]
                tags = next((found for found in near if found), [])
                assert tags, f"{path.name}:{number}: a [ruling] without its rule's tag"
                for tag in tags:
                    found.setdefault(tag, f"{path.name}:{number}")
    return found


def test_item8_rulings_md_lists_every_ruling_the_code_makes():
    listed = set(re.findall(r"^\| `\[([A-Z]{2}-\d+)\]`", (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8"),
                            re.MULTILINE))
    missing = {tag: where for tag, where in code_rulings().items() if tag not in listed}
    assert not missing, f"rulings decided in the code but not in docs/rulings.md: {missing}"
    assert "OS-7" in code_rulings()   # several drawing players: clockwise from the starter
