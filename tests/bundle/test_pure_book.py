"""The pure search's opening book: every move it holds is legal on its line, a game is followed
through it from the boards alone, and a game off its lines leaves it."""

from random import Random

import pytest

from bots.volcanoes.pure import book, rules
from bots.volcanoes.pure.mcts import MCTSBot

N = rules.N_TILES
G = book.GROWTH_TURN


def test_tiles_survive_encoding_two_a_character():
    tiles = [*range(N), book.NO_MOVE, 5]
    text = book.encode(tiles)
    assert len(text) == len(tiles) // 2 and book.decode(text) == tiles
    assert book.decode(book.encode([7])) == [7, book.NO_MOVE]
    assert all(0x4E00 <= ord(ch) <= 0x9FFF for ch in text)  # (one UTF-16 unit each)


def _legal_after(line, move):
    board, turns = book.replay(line)
    return turns == len(line) and rules.is_legal(board, rules.ACTORS[turns], move)


def test_every_book_move_is_legal_on_its_line():
    assert _legal_after([], book.FIRST)
    for b in rules.TILES:
        o2 = book.lookup([b])
        assert _legal_after([b], o2)
        assert _legal_after([b, o2, G], book.lookup([b, o2, G]))
    lines = 0
    for o1 in rules.TILES:
        for o2 in rules.TILES:
            line = [book.FIRST, o1, G, o2]
            if book.replay(line)[1] != 4:  # o1 or o2 on blue's tile: no such line
                assert book.FIRST in (o1, o2) and book.lookup(line) == book.NO_MOVE
                continue
            b5 = book.lookup(line)
            assert _legal_after(line, b5), line
            b7 = book.lookup(line + [b5, G])
            assert b7 == book.NO_MOVE or _legal_after(line + [b5, G], b7), line
            lines += b7 != book.NO_MOVE
    assert lines > 6000  # (a line ends without a move only where the game did)


def _orange_line(b1, b5, b7):
    return [b1, book.lookup([b1]), G, book.lookup([b1, book.lookup([b1]), G]), b5, G, b7]


def test_every_deep_orange_move_is_legal_on_its_line():
    sample = Random(0)
    tiles = [t for t in rules.TILES if book._SIGMA[t][t] == t]  # each class's first tile
    assert len(tiles) == 2
    lines = [(b1, b5, b7) for b1 in tiles for b5 in rules.TILES for b7 in rules.TILES]
    lines += [(sample.randrange(N), sample.randrange(N), sample.randrange(N)) for _ in range(3000)]
    booked = 0
    for b1, b5, b7 in lines:
        line = _orange_line(b1, b5, b7)
        if book.replay(line)[1] != 7:
            continue
        o7 = book.lookup(line)
        if o7 == book.NO_MOVE:  # (only where the game ended, or no legal line led here)
            continue
        booked += 1
        assert _legal_after(line, o7), line
        on = line + [o7, G]
        o9 = book.lookup(on)
        assert o9 != book.NO_MOVE or book.replay(on)[1] < 0, on  # (none only where the game ended)
        assert o9 == book.NO_MOVE or _legal_after(on, o9), on
    assert booked > 10_000


def test_each_symmetry_keeps_adjacency_and_antipodes_and_takes_its_tile_to_its_class():
    firsts = {book._SIGMA[b][b] for b in rules.TILES}
    assert firsts == {0, 6}  # (60 tiles and 20)
    for b in rules.TILES:
        sigma = book._SIGMA[b]
        assert sorted(sigma) == list(rules.TILES)
        for t in rules.TILES:
            assert sorted(sigma[n] for n in rules._NB[t]) == sorted(rules._NB[sigma[t]])
            assert sigma[(t + N // 2) % N] == (sigma[t] + N // 2) % N


def _play(colour, seed, opponent_moves=None):
    """A game against random moves; our moves from the book while it has one. The book moves
    played, by turn."""
    rng = Random(seed)
    opening = book.Opening()
    board, played = rules.new_board(), {}
    for turns in range(book.LAST_TURN + 2):
        who = rules.ACTORS[turns]
        if who == rules.GROWTH:
            tile = G
        elif who == colour:
            tile = opening.move(board, turns)
            if tile == book.NO_MOVE:
                break
            played[turns] = tile
        else:
            moves = rules.legal_moves(board, who)
            tile = opponent_moves.pop(0) if opponent_moves else rng.choice(moves)
        if rules.take_turn(board, turns, tile) != rules.ONGOING:
            break
    return played


@pytest.mark.parametrize("seed", range(6))
def test_a_game_is_followed_through_the_book_from_its_boards(seed):
    blue = _play(rules.BLUE, seed)
    assert sorted(blue) == [0, 4, 6] and blue[0] == book.FIRST
    orange = _play(rules.ORANGE, seed)
    assert sorted(orange) == [1, 3, 7, 9]


def test_the_opponent_raising_its_first_volcano_is_a_line_too():
    b = book.FIRST
    o1 = next(t for t in rules.TILES if t != b)
    played = _play(rules.BLUE, 0, opponent_moves=[o1, o1])
    assert played[4] == book.lookup([b, o1, G, o1])


def test_a_game_that_is_not_on_the_book_leaves_it():
    board = rules.new_board()
    off = next(t for t in rules.TILES if t != book.FIRST)
    for turns, tile in enumerate([off, off + 1 if off + 1 != book.FIRST else off + 2, G, off]):
        rules.take_turn(board, turns, tile)
    opening = book.Opening()
    assert opening.move(board, 4) == book.NO_MOVE
    assert opening.move(rules.new_board(), 0) == book.NO_MOVE  # (once out, out for the game)


def test_mcts_plays_the_book_unless_told_not_to():
    bot = MCTSBot(seed=1, iterations=50)
    bot.start(rules.BLUE)
    assert bot.best_move(rules.new_board(), 0, 0.0) == book.FIRST
    assert bot.iterations == 0
    bot = MCTSBot(seed=1, iterations=50, opening=0)
    bot.start(rules.BLUE)
    bot.best_move(rules.new_board(), 0, 0.0)
    assert bot.iterations == 50


def test_the_book_maker_writes_the_lines_it_is_given(tmp_path):
    from bots.volcanoes.make_book import write

    orange = {"0": [1, 2], "6": [7, 8]}
    deep = {"1": [3, 4], str(N * N + 5): [9, -1]}
    parts = [
        {"first": 7, "orange": orange, "lines": {"81": [3, 4]}, "deep": deep},
        {"first": 7, "lines": {"6399": [5, -1]}},
    ]
    path = tmp_path / "opening_book.py"
    write(parts, path)
    tables = {}
    exec(path.read_text(), tables)
    assert book.decode(tables["FIRST"]) == [7, book.NO_MOVE]
    sigma = book.symmetries(
        [book.decode(tables["GENERATORS"])[i : i + N] for i in range(0, len(book.decode(tables["GENERATORS"])), N)]
    )
    assert sigma == book._SIGMA
    assert book.decode(tables["ORANGE"])[:2] == [1, 2]
    back = book._BACK[5]  # tile 5's first moves: those of its class's first tile, taken back
    assert book.decode(tables["ORANGE"])[10:12] == [back[m] for m in (orange[str(sigma[5][5])])]
    blue = book.decode(tables["BLUE"])
    assert len(blue) == 2 * N * N
    assert blue[2 * 81 : 2 * 81 + 2] == [3, 4] and blue[-2:] == [5, book.NO_MOVE]
    assert blue[:2] == [book.NO_MOVE, book.NO_MOVE]
    deep_moves = book.decode(tables["DEEP"])
    assert len(deep_moves) == 2 * 2 * N * N  # (two moves a line, two classes)
    assert deep_moves[:4] == [book.NO_MOVE, book.NO_MOVE, 3, 4]
    assert deep_moves[2 * (N * N + 5) : 2 * (N * N + 5) + 2] == [9, book.NO_MOVE]
