"""The pictures: text for the terminal and an SVG image."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from referee.vikings import rules, view

SEED = "O1O0O1N1N2N2N3N3N3BuGcRjYk"


def test_text_shows_tiles_openings_and_boats():
    board = rules.parse_board(SEED)
    lines = view.text(board, rules.parse_targets("BuGdRcYn")).splitlines()
    assert lines[0].split() == ["a", "b", "G"]  # the green boat on edge c
    assert lines[2].split() == ["d", "|", "0", "O1|", "e", "1", "O0", "f", "|", "2", "O1|", "g"]
    assert lines[10].endswith("8 N3  B*")  # the blue boat is on its target u
    assert lines[-2:] == [f"board {SEED}", "target BuGdRcYn (not met)"]
    # Tile 1 (O0) is open left and right: no wall at e or f; tile 0 (O1) is closed left and right.
    assert "\x1b[" not in "\n".join(lines)
    assert "\x1b[1;97;44mB" in view.text(board, color=True)


def test_svg_is_one_image_with_nine_tiles_and_the_boats():
    board = rules.parse_board(SEED)
    root = ET.fromstring(view.svg(board, rules.parse_targets("BrGdRcYn")))
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    assert len(root.findall(f"{ns}path")) == 9
    assert len(root.findall(f"{ns}circle")) == 4 and len(root.findall(f"{ns}polygon")) == 4
    paths = [p.get("d") for p in root.findall(f"{ns}path")]
    # A closed side is a convex arc (sweep 1), an open side the concave cut (sweep 0): 2 each here.
    assert [p.count(" 0 0 0 ") for p in paths] == [2] * 9


def test_show_command(run_cli, tmp_path, capsys):
    image = tmp_path / "board.svg"
    assert (
        run_cli(
            "vikings", "show", "N0O1N1N0O0O1N0N3N1Rt", "Rv", "--moves", "8547776", "--svg", str(image), "--no-color"
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "board N0O1N1N0O1O2N1N2N2Rv" in out and "target Rv (met)" in out
    assert ET.parse(image).getroot().tag.endswith("svg")
    assert run_cli("vikings", "show", "N0O1N1N0O0O1N0N3N1Rt", "--moves", "850", "--no-color") == 2
    captured = capsys.readouterr()
    assert "board N0O1N1N0O0O2N0N3N2Rm" in captured.out  # the board before the illegal move
    assert captured.err == "referee vikings show: stopped at move 3 (tile 0): no boat on tile 0's edges\n"
    assert run_cli("vikings", "show", "N0O1N1N0O0O1N0N3N1Rz") == 2
    says = "referee vikings show: BOARD 'N0O1N1N0O0O1N0N3N1Rz', character 20: edge must be a letter a-x, not 'z'"
    assert capsys.readouterr().err.strip() == says
    assert run_cli("vikings", "show", "N0O1N1N0O0O1N0N3N1Rt", "Pv") == 2
    says = "referee vikings show: TARGET 'Pv', character 1: boat colour must be one of B, G, R, Y, not 'P'"
    assert capsys.readouterr().err.strip() == says
    assert run_cli("vikings", "show", "N0O1N1N0O0O1N0N3N1Rt", "--svg", str(tmp_path / "no" / "dir.svg")) == 2
    assert "referee vikings show: cannot write" in capsys.readouterr().err


def test_show_given_board_and_target_as_one_argument_points_at_the_space(run_cli, capsys):
    assert run_cli("vikings", "show", "N0O1N1N0O0O1N0N3N1Rt Rv") == 2
    assert capsys.readouterr().err == (
        "referee vikings show: BOARD 'N0O1N1N0O0O1N0N3N1Rt Rv', character 21: a board string has no space: "
        "BOARD and TARGET are two arguments (quote neither, or each alone)\n"
    )
