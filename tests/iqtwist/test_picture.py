"""`referee iqtwist show`: the terminal drawing, the SVG image, and bad placement strings."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import referee.cli
from referee.iqtwist.picture import COLOURS, LEGEND, svg_picture, text_picture
from referee.iqtwist.pieces import PIECES, SHAPES, colour
from referee.iqtwist.rules import parse_state

# The official worked example: all 32 cells covered, every peg under a hole of its colour.
WORKED = "a7A7b6A7c1A3d2A6e2C3f3C4g4A7h6D0i6B0j2B0j1C0k3C0l4B0l5C0"
# Two pieces and three pegs: peg i in piece b's hole at 6B, pegs j and l on free cells.
PARTIAL = "a7A7b6A7i6B0j2B0l5C0"
SVG = "{http://www.w3.org/2000/svg}"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def grid(picture: str) -> list[list[str]]:
    """The 4 x 8 cell texts of a plain drawing (five characters a cell, one space between)."""
    rows = picture.splitlines()[1:5]
    return [[row[3 + 6 * column : 8 + 6 * column] for column in range(8)] for row in rows]


def loops_of(piece: str, mark: str) -> int:
    return sum(line.count(mark) for line in SHAPES[piece])


def test_the_worked_example_fills_every_cell():
    picture = text_picture(parse_state(WORKED))
    lines = picture.splitlines()
    assert lines[0].split() == list("12345678")
    assert [line[0] for line in lines[1:5]] == list("ABCD")
    assert lines[5] == LEGEND
    cells = [text for row in grid(picture) for text in row]
    assert len(cells) == 32
    assert all(re.fullmatch(r"\[ [a-h] \]|\( [a-h] \)|\([a-h]:[i-l]\)", text) for text in cells), cells
    for piece in PIECES:
        assert sum(piece in text[:3] for text in cells) == loops_of(piece, "X") + loops_of(piece, "O")
        assert sum(text.startswith(f"[ {piece}") for text in cells) == loops_of(piece, "X")
    # Each of the six pegs is drawn inside a hole, e.g. peg i at 6B in piece b's hole.
    assert grid(picture)[1][5] == "(b:i)"
    assert sum(":" in text for text in cells) == 6


def test_free_cells_and_pegs_standing_alone():
    rows = grid(text_picture(parse_state(PARTIAL)))
    assert rows[0][:5] == ["  .  "] * 5
    assert rows[0][5:] == ["[ b ]", "[ a ]", "( a )"]
    assert rows[1][1] == " <j> " and rows[2][4] == " <l> "
    assert rows[1][5] == "(b:i)"


def test_colours_are_ansi_escapes_around_the_same_text():
    state = parse_state(PARTIAL)
    coloured = text_picture(state, coloured=True)
    assert "\x1b[1;97;41m[ a ]\x1b[0m" in coloured  # filled red loop: white letter on red
    assert "\x1b[1;31m( a )\x1b[0m" in coloured  # red hole: red letter, no background
    assert "\x1b[1;34m <j> \x1b[0m" in coloured  # blue peg
    assert ANSI.sub("", coloured) == text_picture(state)
    assert "\x1b" not in text_picture(state)


def _svg(text: str) -> ET.Element:
    root = ET.fromstring(svg_picture(parse_state(text)))
    assert root.tag == f"{SVG}svg"
    return root


def _with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}circle") if name in e.get("class", "").split()]


def test_svg_of_the_worked_example_has_every_loop_and_peg_in_its_colour():
    root = _svg(WORKED)
    loops, pegs = _with_class(root, "loop"), _with_class(root, "peg")
    assert len(loops) == 32
    assert len(_with_class(root, "hole")) == sum(loops_of(p, "O") for p in PIECES) == 14
    assert len(_with_class(root, "filled")) == sum(loops_of(p, "X") for p in PIECES) == 18
    for loop in loops:
        hue = COLOURS[colour(loop.get("data-piece"))]
        assert (loop.get("stroke") if "hole" in loop.get("class") else loop.get("fill")) == hue
    assert sorted(peg.get("data-peg") for peg in pegs) == list("ijjkll")
    assert all(peg.get("fill") == COLOURS[colour(peg.get("data-peg"))] for peg in pegs)
    assert "a7A7b6A7" in root.find(f"{SVG}title").text


def test_svg_of_a_partial_board():
    root = _svg(PARTIAL)
    assert len(_with_class(root, "loop")) == 8  # pieces a and b, four loops each
    assert len(_with_class(root, "hole")) == 3
    assert len(_with_class(root, "peg")) == 3
    assert len(_with_class(root, "socket")) == 32


def test_show_writes_plain_text_and_the_svg_file(tmp_path):
    image = tmp_path / "board.svg"
    done = subprocess.run(
        [sys.executable, "-m", "referee.cli", "iqtwist", "show", WORKED, "--svg", str(image)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout  # stdout is not a terminal
    assert done.stdout.startswith(text_picture(parse_state(WORKED)))
    assert image.read_text() == svg_picture(parse_state(WORKED))


def test_show_no_color(capsys):
    assert referee.cli.main(["iqtwist", "show", PARTIAL, "--no-color"]) == 0
    assert capsys.readouterr().out == text_picture(parse_state(PARTIAL)) + "\n"


def test_a_malformed_or_invalid_placement_is_refused_with_the_rules_message(capsys):
    assert referee.cli.main(["iqtwist", "show", "a7A7b6A"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "referee iqtwist show: length 7 is not a multiple of 4\n"
    assert referee.cli.main(["iqtwist", "show", "a7A7b9A7"]) == 2
    assert capsys.readouterr().err == "referee iqtwist show: placement 2 'b9A7': column '9' is not 1-8\n"
    assert referee.cli.main(["iqtwist", "show", "a7A7b6A5i6B0"]) == 2
    assert "its filled loop at 6B would cover the peg i6B0" in capsys.readouterr().err


def test_an_svg_file_that_cannot_be_written_is_refused(tmp_path, capsys):
    assert referee.cli.main(["iqtwist", "show", PARTIAL, "--svg", str(tmp_path / "no" / "such.svg")]) == 2
    assert "cannot write" in capsys.readouterr().err
