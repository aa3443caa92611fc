"""docs/architecture.md names each step of the key -> pixel and event ->
phone paths by its function: every name it gives is there in the code."""
from __future__ import annotations

import ast
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


# --- nothing outside a game's own modules names a game --------------------------------

def game_words() -> re.Pattern:
    """A game's short name or title, as a word (every game of the score
    log; the table tools' name is a plain word)."""
    from referee import catalogue
    words = {word for game in catalogue.GAMES.values() if game.logged for word in (game.name, game.title)}
    return re.compile(r"\b(" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) + r")\b", re.I)


def own(path: Path) -> bool:
    """A game's own module or template: named after it ("decrypto.py",
    "octiles_draw.py", "team-decrypto.html"), or the catalogue that
    defines them."""
    from referee import catalogue
    parts = set(re.split(r"[-_.]", path.name))
    return path.name == "catalogue.py" or any(game in parts for game in catalogue.GAMES)


def said_in_code(source: str) -> list[str]:
    """What Python code says, leaving out comments and docstrings: its
    names, the modules it imports and its strings."""
    tree = ast.parse(source)
    documented = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree) if isinstance(node, documented)
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            out.append(node.value)
        elif isinstance(node, ast.Name):
            out.append(node.id)
        elif isinstance(node, ast.Attribute):
            out.append(node.attr)
        elif isinstance(node, ast.alias):
            out.append(node.name)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append(node.module)
    return out


def named_games(path: Path) -> list[str]:
    words = game_words()
    if path.suffix == ".py":
        said = said_in_code(path.read_text())
    else:   # a template, a script or a style sheet, without its comments
        said = [re.sub(r"\{#.*?#\}|/\*.*?\*/|^\s*//.*?$", "", path.read_text(), flags=re.S | re.M)]
    return sorted({m.group(0) for text in said for m in words.finditer(text.replace("_", " "))})


def shared_files() -> list[Path]:
    return [path for suffix in ("*.py", "*.html", "*.js", "*.css") for path in (ROOT / "referee").rglob(suffix)
            if not own(path)]


def test_nothing_outside_a_games_own_modules_names_a_game():
    named = {str(path.relative_to(ROOT)): found for path in shared_files() if (found := named_games(path))}
    assert named == {}


def test_the_game_name_check_sees_code_and_not_prose(tmp_path):
    code = tmp_path / "shared.py"
    code.write_text('"""Decrypto\'s tokens, said in prose."""\n# Octiles too\n'
                    'from games import davinci\nHEADING = {"osmisifry": "Booklet"}\nby_tokens = game == "Decipher"\n')
    assert named_games(code) == ["Decipher", "davinci", "osmisifry"]
    assert own(ROOT / "referee/web/decrypto.py") and own(ROOT / "referee/box/flows/octiles_draw.py")
    assert own(ROOT / "referee/web/templates/team-decrypto.html") and not own(ROOT / "referee/web/sheets.py")
