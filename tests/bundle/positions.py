"""Random positions for the pure engine's playout tests."""

from random import Random

from bots.volcanoes.pure import rules as pure


def random_position_and_draws(seed: int, opening_turns: int):
    """(board, turns played, bits, draws): a position after up to `opening_turns` random turns
    (fewer if the game ends), and a `bits` function for a playout that records its draws."""
    rng = Random(seed)
    board = pure.new_board()
    turns = 0
    while turns < opening_turns:
        who = pure.ACTORS[turns]
        tile = rng.choice(pure.legal_moves(board, who)) if who else -1
        after = bytearray(board)
        if pure.take_turn(after, turns, tile) != pure.ONGOING:
            break
        board, turns = after, turns + 1
    draws = []

    def bits(k):
        draws.append(rng.getrandbits(k))
        return draws[-1]

    return board, turns, bits, draws
