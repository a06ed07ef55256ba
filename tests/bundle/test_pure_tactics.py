"""Forced wins at the pure search's root (`pure.tactics`): the same as trying every move and every
second move plainly, and what the search does with them."""

from hypothesis import given, settings
from hypothesis import strategies as st

from bots.volcanoes.pure import rules as pure
from bots.volcanoes.pure import tactics
from bots.volcanoes.pure.mcts import MCTSBot, Node
from tests.bundle.positions import random_position_and_draws


def _plainly(board, turns, tile):
    """(board, turns, outcome) after `tile` and the growth that may follow, by the rules alone."""
    board = bytearray(board)
    outcome = pure.take_turn(board, turns, tile)
    turns += 1
    if outcome == pure.ONGOING and pure.ACTORS[turns] == pure.GROWTH:
        outcome = pure.take_turn(board, turns, -1)
        turns += 1
    if outcome == pure.ONGOING and turns >= pure.MAX_TURNS:
        outcome = pure.DRAW
    return board, turns, outcome


def _wins_at_once(board, turns):
    mover = pure.ACTORS[turns]
    return {t for t in pure.legal_moves(board, mover) if pure.play(bytearray(board), mover, t) == pure.WIN_FOR[mover]}


def _forced_wins(board, turns):
    """Every move that wins by force within the mover's next two moves: at once (the growth after
    it included), or by a move of the mover's after it."""
    mover = pure.ACTORS[turns]
    found = set()
    for tile in pure.legal_moves(board, mover):
        after, played, outcome = _plainly(board, turns, tile)
        if outcome == pure.WIN_FOR[mover]:
            found.add(tile)
        elif outcome == pure.ONGOING and pure.ACTORS[played] == mover and _wins_at_once(after, played):
            found.add(tile)
    return found


def _position(seed, opening_turns):
    """A position with a player to move (random turns, then the growth if one is next)."""
    board, turns, _, _ = random_position_and_draws(seed, opening_turns)
    if pure.ACTORS[turns] == pure.GROWTH:
        if pure.grow(board) != pure.ONGOING:
            return None, turns
        turns += 1
    return board, turns


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 60))
def test_winning_moves_and_forced_wins_are_those_found_plainly(seed, opening_turns):
    board, turns = _position(seed, opening_turns)
    if board is None:
        return
    before = bytes(board)
    assert sorted(tactics.winning_moves(board, turns)) == sorted(_wins_at_once(board, turns))
    move = tactics.forced_win(board, turns)
    plain = _forced_wins(board, turns)
    assert (move != tactics.NO_WIN) == bool(plain)
    assert move == tactics.NO_WIN or move in plain
    assert bytes(board) == before, "looking leaves the board alone"


def _two_move_wins(count):
    """Positions where the mover has a forced win within two moves and none at once."""
    found = []
    seed = 0
    while len(found) < count:
        seed += 1
        board, turns = _position(seed, 12 + seed % 40)
        if board is not None and not _wins_at_once(board, turns) and _forced_wins(board, turns):
            found.append((board, turns))
    return found


def test_the_bot_plays_a_forced_win_without_searching():
    for board, turns in _two_move_wins(5):
        bot = MCTSBot(seed=1, iterations=1, opening=0)
        bot.start(pure.ACTORS[turns])
        assert bot.best_move(bytearray(board), turns, 0.0) in _forced_wins(board, turns)
        assert bot.iterations == 0


def _refutable():
    """A position whose mover plays next to the opponent's double move, with one move after which
    the opponent wins by force and one after which it does not."""
    seed = 0
    while True:
        seed += 1
        board, turns = _position(seed, 12 + seed % 40)
        if board is None or pure.ACTORS[turns + 1] != -pure.ACTORS[turns] or tactics.forced_win(board, turns) >= 0:
            continue
        refuted, safe = None, None
        for tile in pure.legal_moves(board, pure.ACTORS[turns]):
            after, played, outcome = _plainly(board, turns, tile)
            if outcome != pure.ONGOING:
                continue
            if _forced_wins(after, played):
                refuted = refuted if refuted is not None else tile
            else:
                safe = safe if safe is not None else tile
        if refuted is not None and safe is not None:
            return board, turns, refuted, safe


def test_a_choice_the_opponent_refutes_is_proven_lost_and_the_next_best_played():
    board, turns, refuted, safe = _refutable()
    bot = MCTSBot(seed=1, iterations=1, opening=0)
    root = Node(bytearray(board), turns, -pure.ACTORS[turns], pure.ONGOING, -1)
    root.expand(bot.rng)
    for tile, visits in ((refuted, 10), (safe, 5)):
        child = root.child(tile)
        child.visits, child.wins = visits, visits / 2
    best = bot._best(root)
    assert best.move == refuted
    chosen = bot._unrefuted(root, best, 0.0)  # (a fixed search: every check made whatever the clock)
    assert chosen.move == safe
    assert root.children[refuted].proof == pure.WIN_FOR[-pure.ACTORS[turns]]


def test_proven_wins_counts_the_winning_moves_played(tmp_path, capsys):
    """`python -m bots.volcanoes.proven_wins` on positions labelled as proven wins: each is one where
    a forced win within two moves exists, so the search with tactics plays one at each."""
    import numpy as np

    from bots.volcanoes import proven_wins

    positions = _two_move_wins(3)
    wins = [pure.WIN_FOR[pure.ACTORS[turns]] for _, turns in positions]
    path = tmp_path / "data.npz"
    np.savez(
        path,
        levels=np.array([pure.to_levels(board) for board, _ in positions], dtype=np.int8),
        turns=np.array([turns for _, turns in positions]),
        stats=np.zeros((3, 4, pure.N_TILES), dtype=np.float32),
        proven=np.zeros((3, pure.N_TILES), dtype=np.int8),  # (the labels prove no move: the look must)
        best=np.zeros(3, dtype=np.int8),
        root_proof=np.array(wins, dtype=np.int8),
        outcome=np.array(wins, dtype=np.int8),
    )
    assert proven_wins.main([str(path), "--iterations", "2"]) == 0
    assert capsys.readouterr().out.strip().endswith("played a winning move in 3; tactics.forced_win finds one in 3")
    for board, turns in positions:
        plain = _forced_wins(board, turns)
        assert all(
            tactics.wins_by_force(board, turns, t) == (t in plain) for t in pure.legal_moves(board, pure.ACTORS[turns])
        )
