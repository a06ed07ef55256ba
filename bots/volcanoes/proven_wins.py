"""How often the pure search plays a winning move where numba `mcts`'s long searches proved a win:
a measure of the tactics a turn's few hundred playouts miss. Not bundled.

`python -m bots.volcanoes.proven_wins DATA.npz... [--positions N] [--iterations N] [--tactics 0|1]`
reads positions labelled by `make_prior_data` and takes the first N in which the search there proved
the root won for the mover. At each, the pure search (`pure-mcts` with the given iterations, no book,
seeded by the position's number: the same figures on any machine) chooses a move, and the move counts
as winning when the labelling search proved it won, or when it wins by force within the mover's next
two moves (which that search may have left unproven). Prints how many, and how many of them
`pure.tactics.forced_win` finds alone.
"""

from __future__ import annotations

import sys
from pathlib import Path

from referee.platform.errors import UserError
from referee.platform.commands import CommandParser, report

from .fit_prior import load
from .pure import rules, tactics
from .pure.mcts import MCTSBot


def proven_won(data: dict, count: int) -> list[int]:
    """The first `count` positions whose root the labelling search proved won for the mover."""
    found = []
    for i, (turns, proof) in enumerate(zip(data["turns"], data["root_proof"], strict=True)):
        mover = rules.ACTORS[int(turns)]
        if mover != rules.GROWTH and int(proof) == rules.WIN_FOR[mover]:
            found.append(i)
            if len(found) == count:
                break
    return found


def main(argv: list[str] | None = None) -> int:
    parser = CommandParser(prog="python -m bots.volcanoes.proven_wins", description=__doc__)
    parser.add_argument("data", nargs="+", type=Path, help="files written by make_prior_data")
    parser.add_argument("--positions", type=int, default=300, help="how many proven wins to play (default 300)")
    parser.add_argument("--iterations", type=int, default=400, help="the search's iterations a move (default 400)")
    parser.add_argument("--tactics", type=int, choices=(0, 1), default=1, help="pure-mcts's tactics option")
    args = parser.parse_args(argv)
    try:
        data = load(args.data)
        chosen = proven_won(data, args.positions)
        played = looked = 0
        for i in chosen:
            board, turns = rules.from_levels(data["levels"][i]), int(data["turns"][i])
            bot = MCTSBot(seed=i, iterations=args.iterations, opening=0, tactics=args.tactics)
            bot.start(rules.ACTORS[turns])
            tile = bot.best_move(bytearray(board), turns, 0.0)
            proven = int(data["proven"][i][tile]) == int(data["root_proof"][i])
            played += proven or tactics.wins_by_force(board, turns, tile)
            looked += tactics.forced_win(board, turns) != tactics.NO_WIN
        print(
            f"{len(chosen)} proven wins: pure-mcts (iterations={args.iterations}, tactics={args.tactics}) "
            f"played a winning move in {played}; tactics.forced_win finds one in {looked}"
        )
    except UserError as exc:
        return report(args, exc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
