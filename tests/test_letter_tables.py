"""Issue 20 item 15: the owners' own Osmišifry letter tables [OS-1].

The configuration names TOML files (``[osmisifry] letter_tables``);
``referee check-config`` says what is wrong with one, naming the key; the
setup form offers them after the bundled tables, Czech chosen; the table
chosen goes into the game's options whole, so the rolls, the score log and
a restart all use it, whatever happens to its file afterwards.
"""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

from referee import config as configuration
from referee.testing import Table

# The owner's edition: Q everywhere but the cells the rulebook's example
# fixes, so that a roll shows which table answered.  A printed table repeats
# letters (the bundled ones do too): that is no mistake.
OWN = {(4, 3): "T", (5, 6): "E", (7, 6): "N", (8, 8): "H"}


def table_text(name: str = "Edice 2019", rows=None) -> str:
    rows = rows or [[OWN.get((r, c), "Q") for c in range(1, 9)] for r in range(1, 9)]
    body = ",\n".join("  [" + ", ".join(f'"{cell}"' for cell in row) + "]" for row in rows)
    return f'name = "{name}"\nrows = [\n{body},\n]\n'


def write(folder: pathlib.Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def check(folder: pathlib.Path, *tables: str) -> str:
    """What the configuration API says of a file naming these tables."""
    listed = ", ".join(f'"{t}"' for t in tables)
    conf = write(folder, "config.toml", f"[osmisifry]\nletter_tables = [{listed}]\n")
    try:
        configuration.load(conf)
    except configuration.ConfigError as exc:
        return str(exc)
    return "fine"


def referee(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee.cli", *args], capture_output=True, text=True, timeout=60)


# --- check-config -----------------------------------------------------------------------

def test_item15_check_config_takes_a_table_beside_the_configuration(tmp_path):
    write(tmp_path, "edice.toml", table_text())
    conf = write(tmp_path, "config.toml", '[osmisifry]\nletter_tables = ["edice.toml"]\n')
    done = referee("check-config", conf)
    assert done.returncode == 0 and done.stdout.strip() == f"{conf}: fine", done.stderr


def test_item15_check_config_names_the_key_and_the_problem_of_a_bad_table(tmp_path):
    bad = write(tmp_path, "bad.toml", table_text().replace('"Q"]', '"Q", "Q"]', 1))
    conf = write(tmp_path, "config.toml", f'[osmisifry]\nletter_tables = ["{bad}"]\n')
    done = referee("check-config", conf)
    assert done.returncode == 2
    assert done.stderr.strip() == (f"referee: config.toml: line 2: osmisifry.letter_tables[0]: {bad}: "
                                   "Row 1 of the letter table has 9 letters, not 8.")


ROWS = [[OWN.get((r, c), "Q") for c in range(1, 9)] for r in range(1, 9)]


@pytest.mark.parametrize("text, said", [
    (table_text(rows=ROWS[:7]), "The letter table has 7 rows, not 8."),
    (table_text(rows=ROWS[:7] + [ROWS[7][:5]]), "Row 8 of the letter table has 5 letters, not 8."),
    (table_text(rows=ROWS[:2] + [ROWS[2][:3] + [""] + ROWS[2][4:]] + ROWS[3:]),
     "Row 3, column 4 of the letter table: '' is not one letter A-Z."),
    (table_text(rows=ROWS[:1] + [["q"] + ROWS[1][1:]] + ROWS[2:]),
     "Row 2, column 1 of the letter table: 'q' is not one letter A-Z."),
    ('name = "Edice"\n', "The letter table needs 'rows': a list of 8 rows."),
    ('name = "Edice"\nrows = [\n  ["A" "B"],\n]\n',
     "The letter table is not valid TOML: Unclosed array (at line 3, column 8)"),
])
def test_item15_a_table_with_missing_cells_a_wrong_size_or_bad_toml_is_refused(tmp_path, text, said):
    path = write(tmp_path, "edice.toml", text)
    assert check(tmp_path, path) == f"config.toml: line 2: osmisifry.letter_tables[0]: {path}: {said}"


def test_item15_a_table_that_is_no_file_is_refused(tmp_path):
    assert check(tmp_path, "nowhere.toml") == (f"config.toml: line 2: osmisifry.letter_tables[0]: "
                                               f"{tmp_path / 'nowhere.toml'}: no such file")
    assert check(tmp_path, str(tmp_path)) == f"config.toml: line 2: osmisifry.letter_tables[0]: {tmp_path}: not a file"


def test_item15_two_tables_by_one_name_cannot_be_told_apart_at_setup(tmp_path):
    first = write(tmp_path, "a.toml", table_text("Edice"))
    second = write(tmp_path, "b.toml", table_text("Edice"))
    czech = write(tmp_path, "c.toml", table_text("Czech"))
    assert check(tmp_path, first, second) == (
        f"config.toml: line 2: osmisifry.letter_tables[1]: {second}: the name 'Edice' is already "
        "letter_tables[0]'s; give the table a name of its own")
    assert "the name 'Czech' is already a bundled table's" in check(tmp_path, czech)


def test_item15_a_table_without_a_name_is_called_after_its_file(tmp_path):
    path = write(tmp_path, "edice-2019.toml", table_text().split("\n", 1)[1])
    assert check(tmp_path, path) == "fine"
    assert [t.name for t in configuration.load(str(tmp_path / "config.toml")).game("osmisifry").tables()] == ["edice-2019"]


def test_a_configuration_with_an_owners_table_reads_back_from_its_own_tables(tmp_path):
    """What the league hands back to ``parse`` (``Config.tables``): the
    game's section where the file has it, at the top."""
    path = write(tmp_path, "edice.toml", table_text())
    write(tmp_path, "config.toml", f'[osmisifry]\nletter_tables = ["{path}"]\n')
    read = configuration.load(str(tmp_path / "config.toml"))
    tables = read.tables()
    assert tables["osmisifry"] == {"letter_tables": [path]} and "games" not in tables
    assert configuration.parse(tables) == read != configuration.Config()


# --- at the table ---------------------------------------------------------------------------

def main(t: Table) -> list[str]:
    return t.screen("main").splitlines()


def test_item15_OS1_setup_offers_the_owners_table_and_its_letters_are_rolled(tmp_path):
    path = write(tmp_path, "edice.toml", table_text())
    with Table(seed=7, config={"osmisifry": {"letter_tables": [path]}}) as t:
        t.press("2")
        assert "2 Letters: English" in main(t)        # the bundled table of the box's language first
        for name in ("Polish", "Edice 2019", "Czech", "English", "Polish", "Edice 2019"):
            t.press("2")
            assert f"2 Letters: {name}" in main(t)
        t.press("#")
        t.dice.next(4, 3)
        t.press("#")
        assert "Last roll 4+3 = T" in main(t)         # the owner's table, not the Czech one
        t.dice.next(1, 1)
        t.press("#")
        assert "Last roll 1+1 = Q" in main(t)
        assert t.log()[0]["table"] == "Edice 2019"


def test_item15_a_restart_keeps_the_table_the_game_began_with(tmp_path):
    path = write(tmp_path, "edice.toml", table_text())
    with Table(seed=7, config={"osmisifry": {"letter_tables": [path]}}) as t:
        t.type("222#")       # English, Polish, the owner's
        t.dice.next(2, 2)
        t.press("#")
        # The owner rewrites the file: the game goes on with the table it began with.
        write(tmp_path, "edice.toml", table_text(rows=[["Z"] * 8] * 8))
        t.restart()
        assert "Last roll 2+2 = Q" in main(t)
        t.dice.next(8, 8)
        t.press("#")
        assert "Row 1: Q H _" in main(t)
        assert t.log()[0]["table"] == "Edice 2019"
        assert t.log()[0]["rows"][0]["letters"] == ["Q", "H"]


def test_item15_a_table_file_gone_since_the_start_is_left_out_and_said(tmp_path):
    path = write(tmp_path, "edice.toml", table_text())
    with Table(seed=7, config={"osmisifry": {"letter_tables": [path]}}) as t:
        os.remove(path)
        t.press("2")
        assert "edice.toml" in t.screen("main")
        for _ in range(4):
            t.press("2")
            assert "Edice" not in " ".join(line for line in main(t) if line.startswith("2 "))
