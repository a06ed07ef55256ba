from pathlib import Path

from referee.volcanoes import board

DATA = Path(__file__).parents[1] / "data"


def test_init_block_is_codingames_exactly():
    expected = (DATA / "volcanoes" / "init-block.txt").read_text()
    assert "\n".join(board.init_block()) + "\n" == expected


def test_neighbourhood_is_symmetric_and_antipodal():
    for tile, neighbours in enumerate(board.NEIGHBOURS):
        assert len(set(neighbours)) == 3 and tile not in neighbours
        for n in neighbours:
            assert tile in board.NEIGHBOURS[n]
        mirrored = sorted(board.antipode(n) for n in neighbours)
        assert mirrored == sorted(board.NEIGHBOURS[board.antipode(tile)])


def test_ten_equator_edges_join_the_equatorial_tiles():
    assert len(board.EQUATOR_EDGES) == 10
    for a, b in board.EQUATOR_EDGES:
        assert board.NAMES[a].startswith("N") and board.NAMES[b].startswith("S")
        assert int(board.NAMES[a][1:]) >= 22 and int(board.NAMES[b][1:]) >= 22
