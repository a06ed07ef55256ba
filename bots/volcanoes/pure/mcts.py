"""`mcts` in pure Python: Monte Carlo tree search with RAVE over the fast rules in `pure.rules`,
decisive playouts, an MCTS-Solver and an opening book, the tree kept from one turn to the next: the
bot `arena bundle mcts` submits to CodinGame (no numba). Why each part and each default is what it
is: docs/experiments/pure-mcts.md.

A turn allows a few hundred playouts against up to 80 legal moves, too few to try every move before
trusting any; so each node also keeps all-moves-as-first (AMAF) statistics: how the mover fared in
the simulations through the node in which it played a tile at any point later. A child's value
blends its own mean with the AMAF mean of its tile, the AMAF share fading as the child's own visits
grow (RAVE, Gelly & Silver 2007); an unvisited move is valued by AMAF alone (and a prior: learned
offline from numba mcts's searches, `_learned_prior`, or the hand-made means of `_prior`), so the
search tries the promising tiles first. Connection games suit AMAF: a tile that helps later
mostly helps now. A node searches only its decisive moves when it has them (`_decisive`). The first
moves come from an opening book (`book`): numba `mcts`'s long searches on every line of the first turns.
At the root, a forced win within the mover's next two moves is played without a search, and the
search's choice is checked for one of the opponent's (`tactics`): the tree proves such wins only
once it has expanded every node on the way, which a turn's few hundred playouts often do not.

A node is a position where a player is to move (growth turns are folded into the move before
them); `wins` count for the player whose move led to it, so a parent picks the child best for its
own mover though the movers do not simply alternate (blue, orange, growth, orange, blue, growth).
"""

from __future__ import annotations

import sys
import time
from math import exp, log, sqrt
from random import Random

from bots.volcanoes.bot import Bot, main
from referee.platform.bot_env import given_seed

from . import BUDGET, book, prior_weights, rules, tactics
from .decisive import decisive_playout
from .prior import Model, Race, decode

# The options, name: (default, low, high), integers where the default is one: the registry's
# declaration of this bot (`bots.volcanoes.registry.BOTS`), made here because the bundled file
# carries no registry. The prior: `prior` virtual AMAF visits to each move of a new node, at a mean
# by what the tile touches (`_prior`).
OPTIONS = {
    "exploration": (0.05, 0.0, 10.0),
    "rave_bias": (0.02, 0.0, 100.0),  # how quickly a child's own mean takes over from AMAF's
    "iterations": (0, 0, 1_000_000),  # a fixed search a turn (0: by the clock)
    "decisive": (1, 0, 1),  # playouts that take and block wins in one, else random ones
    "solver": (1, 0, 1),  # MCTS-Solver: proven outcomes climb the tree; a proven loss is played last
    "prior": (20, 0, 1000),
    "prior_own": (0.6, 0.0, 1.0),  # near own pieces
    "prior_enemy": (0.5, 0.0, 1.0),  # near the opponent's only
    "prior_alone": (0.45, 0.0, 1.0),  # near nothing
    "prior_raise": (0.45, 0.0, 1.0),  # raising an own volcano that no enemy touches
    "prior_erupting": (0.3, 0.0, 1.0),  # an empty tile whose own neighbours all erupt at the next growth
    "prior_strike": (0.75, 0.0, 1.0),  # raising an own volcano beside an enemy, so that it erupts
    "opening": (1, 0, 1),  # play the opening book's moves while the game is on it
    # The learned prior (`prior.py`) in place of the hand-made means: each move's mean is 0.5 plus
    # `learned` times the log of its chance by the prior over the chance of a uniform draw (0: off).
    "learned": (0.1, 0.0, 1.0),
    # Forced wins within the mover's next two moves looked for at the root (`tactics`): one found
    # is played without a search; the search's choice is checked for one of the opponent's.
    "tactics": (1, 0, 1),
}
DEFAULTS = {name: default for name, (default, _, _) in OPTIONS.items()}
FIRST_PLAY = 0.5  # the AMAF mean of a tile never played
# The reward of an outcome for a player, indexed by outcome (ONGOING, BLUE_WINS, ORANGE_WINS, DRAW).
_REWARD = {
    rules.BLUE: (0.0, 1.0, 0.0, 0.5),
    rules.ORANGE: (0.0, 0.0, 1.0, 0.5),
}
# How far below our last root the tree is searched for the position we are shown next: the
# opponent's move, the growth folded into it, and the opponent's second move.
_REUSE_DEPTH = 2
# Where the opponent moves next, the search's choice and the next best are checked for a forced win
# of the opponent's. A check plays each of the opponent's moves, up to 3 ms: the search stops that
# much sooner to pay for the first, and a further one is made only while that much time is left.
REFUTATION_CHECKS = 3
CHECK_S = 0.004


def _decisive(board, turns: int, moves: list[int]) -> tuple[list[int], bool]:
    """The moves worth searching, and whether the first wins at once: a winning placement alone if
    the mover has one; else, when the opponent moves next and has winning placements, only the
    moves that may stop them (taking such a tile, or raising an own volcano to its top so that it
    erupts: every other move loses, so a node proven lost on these is lost)."""
    mover = rules.ACTORS[turns]
    wins = rules.winning_placements(board, mover)
    if wins:
        return wins[:1], True
    if rules.ACTORS[turns + 1] != -mover:
        return moves, False
    threats = rules.winning_placements(board, -mover)
    if not threats:
        return moves, False
    erupting = rules.BLUE_TOP - 1 if mover > 0 else rules.ORANGE_TOP + 1
    stops = [t for t in moves if t in threats or board[t] == erupting]
    return stops or moves, False


DECISIVE = True


def _prior(board, mover: int, moves: list[int], prior: tuple, visits: list[int], wins: list[float]) -> None:
    """`prior` = (n, and n times the means near own pieces, near the opponent's, alone, of a lone
    raise, beside erupting volcanoes and of a strike): n virtual AMAF visits for each move, with a
    mean by what the tile touches: the mover's own pieces (or it is one: a volcano raised, unless
    no enemy touches it: a lone raise; raised to erupt beside an enemy: a strike; an empty tile
    whose own neighbours all erupt at the next growth is beside erupting volcanoes), else the
    opponent's, else nothing. Few playouts pass through a new node; until they do, these steer it
    away from tiles off on their own."""
    nb = rules._NB
    prior, near_own, near_enemy, alone, lone_raise, beside_erupting, strike = prior
    if mover < 0:  # orange's view of the board: its pieces above EMPTY
        board = board.translate(_MIRROR)
    for t in moves:
        a, b, c = nb[t]
        visits[t] = prior
        if board[t] > 4 and board[a] >= 4 and board[b] >= 4 and board[c] >= 4:
            wins[t] = lone_raise
        elif board[t] > 4:
            wins[t] = strike if board[t] >= 6 else near_own  # (an enemy touches it: not a lone raise)
        elif board[a] > 4 or board[b] > 4 or board[c] > 4:
            x, y, z = board[a], board[b], board[c]  # empty (4) or about to erupt (7), all of them?
            if (x == 4 or x == 7) and (y == 4 or y == 7) and (z == 4 or z == 7):
                wins[t] = beside_erupting
            else:
                wins[t] = near_own
        elif board[a] < 4 or board[b] < 4 or board[c] < 4:
            wins[t] = near_enemy
        else:
            wins[t] = alone


_MIRROR = bytes(rules.BLUE_TOP - c if c <= rules.BLUE_TOP else c for c in range(256))  # a cell seen by the other player
MODEL = Model(decode(prior_weights.WEIGHTS))
_LEARNED_RANGE = (0.05, 0.95)  # the means the learned prior may give


def _learned_prior(
    board, turns: int, moves: list[int], race: Race, learned: tuple, visits: list[int], wins: list[float]
) -> None:
    """`learned` = (n, scale): n virtual AMAF visits for each move at the mean 0.5 + scale * ln(p * m),
    p the move's chance by the learned prior (a softmax of `MODEL`'s scores with `race`), m the
    number of moves."""
    n, scale = learned
    scores = MODEL.scores(board, turns, moves, race)
    top = max(scores)
    total = 0.0
    for s in scores:
        total += exp(s - top)
    shift = log(len(moves) / total) - top  # ln(p * m) = s + shift
    low, high = _LEARNED_RANGE
    for t, s in zip(moves, scores, strict=True):
        mean = 0.5 + scale * (s + shift)
        visits[t] = n
        wins[t] = n * (low if mean < low else high if mean > high else mean)


class Node:
    __slots__ = (
        "board",
        "turns",
        "by",
        "outcome",
        "proof",
        "move",
        "moves",
        "children",
        "tried",
        "visits",
        "wins",
        "amaf_visits",
        "amaf_wins",
        "race",
    )

    def __init__(self, board, turns: int, by: int, outcome: int, move: int):
        self.board = board
        self.turns = turns  # turns played
        self.by = by  # the player whose move led here
        self.outcome = outcome
        self.move = move
        # The outcome under best play when the search has proven it (MCTS-Solver), else ONGOING.
        self.proof = outcome
        self.visits = 0
        self.wins = 0.0
        # The mover's moves and the children tried so far, made by `expand` (None and none until then).
        self.moves: list[int] | None = None
        self.tried: list[Node] | tuple = ()
        # The race (`prior.Race`) the learned prior reads this node's moves with: measured on the
        # search's root, and passed down to the nodes below it.
        self.race: Race | None = None

    def expand(self, rng: Random, prior: tuple | None = None, learned: tuple | None = None) -> None:
        """Make the mover's moves and their statistics. The search does it on a node's second
        visit, not when the node is made: most nodes stay leaves visited once, whose playout needs
        only their board (about a tenth more iterations a second)."""
        mover = rules.ACTORS[self.turns]
        moves = rules.legal_moves(self.board, mover) if self.outcome == rules.ONGOING else []
        if moves and DECISIVE:
            moves, winning = _decisive(self.board, self.turns, moves)
            if winning:
                self.proof = rules.WIN_FOR[mover]
        if not moves and self.outcome == rules.ONGOING:  # no legal move: the referee forfeits the mover
            self.proof = rules.WIN_FOR[-mover]
        cut = int(rng.random() * len(moves))  # ties in the selection go to the first: start anywhere
        self.moves = moves[cut:] + moves[:cut]
        self.children: list[Node | None] = [None] * rules.N_TILES  # by move (a list: _select's loop)
        self.tried: list[Node] = []  # the same children, in the order they were made
        self.amaf_visits = [0] * rules.N_TILES
        self.amaf_wins = [0.0] * rules.N_TILES
        if learned and len(moves) > 1:
            if self.race is None:
                self.race = Race(self.board)
            _learned_prior(self.board, self.turns, moves, self.race, learned, self.amaf_visits, self.amaf_wins)
        elif prior and len(moves) > 1:
            _prior(self.board, mover, moves, prior, self.amaf_visits, self.amaf_wins)

    def child(self, move: int) -> Node:
        """The child after `move` (and the growth turn after it, if one follows), made on demand."""
        node = self.children[move]
        if node is None:
            board, turns, outcome = rules.after_move(self.board, self.turns, move)
            node = self.children[move] = Node(board, turns, rules.ACTORS[self.turns], outcome, move)
            node.race = self.race
            self.tried.append(node)
        return node


def _prove(node: Node) -> bool:
    """After a child of `node` was proven: prove `node` too if its mover has a proven win there,
    or once every move is tried and proven (the best of them for the mover); whether it did."""
    mover = rules.ACTORS[node.turns]
    win = rules.WIN_FOR[mover]
    proofs = [child.proof for child in node.tried]
    if win in proofs:
        node.proof = win
        return True
    if len(proofs) < len(node.moves) or rules.ONGOING in proofs:
        return False
    node.proof = rules.DRAW if rules.DRAW in proofs else rules.WIN_FOR[-mover]
    return True


class MCTSBot(Bot):
    name = "mcts"
    budget = BUDGET
    collect_between_turns = False  # its trees hold no reference cycles: the collector stays off

    def __init__(self, seed: int | None = None, **options):
        """`options`: any of `OPTIONS` (the others at their defaults). A fixed number of `iterations`
        a turn whatever the clock says is for tests and for comparisons that must not depend on the
        machine's speed."""
        unknown = options.keys() - DEFAULTS.keys()
        if unknown:
            raise TypeError(f"MCTSBot takes no option {', '.join(sorted(unknown))}")
        options = {**DEFAULTS, **options}
        self.rng = Random(seed)
        self.fixed_iterations = options["iterations"]
        self.exploration = options["exploration"]
        self.rave_bias = options["rave_bias"]
        self.playout = decisive_playout if options["decisive"] else rules.random_playout
        self.solver = bool(options["solver"])
        # (visits, and the AMAF sums they add: the means times the visits)
        prior = options["prior"]
        means = [options[f"prior_{kind}"] for kind in ("own", "enemy", "alone", "raise", "erupting", "strike")]
        self.prior = (prior, *(prior * mean for mean in means)) if prior else None
        self.learned = (prior, options["learned"]) if prior and options["learned"] else None
        self.root: Node | None = None  # the node of our last move, where the next search starts
        self.tactics = bool(options["tactics"])
        self.use_book = bool(options["opening"])
        self.opening: book.Opening | None = None  # this game's way through the book
        self._searched: Node | None = None
        self.iterations = 0  # of the last search

    def start(self, colour: int) -> None:
        self.root = self._searched = None
        self.opening = book.Opening() if self.use_book else None

    def choose(self, state, budget: float) -> int:
        return self.best_move(rules.from_levels(state.levels), state.turns_played, time.perf_counter() + budget)

    def best_move(self, board, turns_played: int, deadline: float) -> int:
        """The move to play on a `pure.rules` board after `turns_played` turns, searched until the
        `time.perf_counter()` instant `deadline` (or for the fixed `iterations`)."""
        # (No cyclic garbage collection runs in a timed turn: every adapter, `bot.Player`, the
        # launcher's stand-in and the referee's in-process seat, turns the collector off for it.)
        if self.opening is not None:
            move = self.opening.move(board, turns_played)
            if move != book.NO_MOVE:
                self.iterations = 0
                return move
        if self.tactics:
            move = tactics.forced_win(board, turns_played)
            if move != tactics.NO_WIN:
                self.root = self._searched = None
                self.iterations = 0
                return move
        root = self._reuse(board, turns_played)
        # Free the rest of the old tree now, within the budget, not after the deadline.
        self.root = self._searched = None
        checks = self.tactics and self.solver and rules.ACTORS[turns_played + 1] != rules.GROWTH  # (the opponent next)
        self._search(root, deadline - CHECK_S if checks else deadline)
        if not root.tried:  # no legal move: the referee forfeits us whatever we answer
            return 0
        best = self._best(root)
        if checks:
            best = self._unrefuted(root, best, deadline)
        self.root = best
        self._searched = root  # (its other branches are freed at the start of the next turn)
        return best.move

    def _best(self, root: Node) -> Node:
        """The most visited child; with the solver, a proven win first, a proven loss last."""
        if not self.solver:
            return max(root.tried, key=lambda c: (c.visits, c.wins))
        win = rules.WIN_FOR[rules.ACTORS[root.turns]]
        loss = rules.WIN_FOR[-rules.ACTORS[root.turns]]
        return max(root.tried, key=lambda c: (c.proof == win, c.proof != loss, c.visits, c.wins))

    def _unrefuted(self, root: Node, best: Node, deadline: float) -> Node:
        """`best`, or when the opponent has a forced win after it (`tactics.forced_win`), the next
        best child that gives it none (of `REFUTATION_CHECKS` checked, the first always, the others
        while `CHECK_S` is left before `deadline`, or all in a fixed search); a refuted child is
        proven lost, and the solver's choice puts it last."""
        mover = rules.ACTORS[root.turns]
        for check in range(REFUTATION_CHECKS):
            if best.proof != rules.ONGOING or rules.ACTORS[best.turns] != -mover:  # decided, or we move again
                return best
            if check and not self.fixed_iterations and time.perf_counter() + CHECK_S > deadline:
                return best
            if tactics.forced_win(best.board, best.turns) == tactics.NO_WIN:
                return best
            best.proof = rules.WIN_FOR[-mover]
            best = self._best(root)
        return best

    def _reuse(self, board, turns_played: int) -> Node:
        """The node of this position in the last search's tree, or a new root."""
        level = [self.root] if self.root is not None else []
        board = bytes(board)
        for _ in range(_REUSE_DEPTH + 1):
            for node in level:
                if node.turns == turns_played and node.board == board:
                    return node
            level = [child for node in level for child in node.tried]
        return Node(bytearray(board), turns_played, -rules.ACTORS[turns_played], rules.ONGOING, -1)

    def _select(self, node: Node) -> int:
        """The move to follow from `node`: the best blend of own and AMAF means, plus a little
        exploration; ties go to the first in `node.moves`, which starts at a random tile. The
        moves not tried yet share one exploration term, so the loop keeps the best of them by its
        AMAF mean alone (most moves of a node: a fifth fewer operations than valuing each)."""
        children, amaf_visits, amaf_wins = node.children, node.amaf_visits, node.amaf_wins
        scale = self.exploration * sqrt(log(node.visits + 1))
        bias = self.rave_bias
        lost = rules.WIN_FOR[-rules.ACTORS[node.turns]] if self.solver else -1
        best_new, new_value = -1, -1.0
        best_move, best_value = -1, -1.0
        for move in node.moves:
            child = children[move]
            if child is None:
                rn = amaf_visits[move]
                rq = amaf_wins[move] / rn if rn else FIRST_PLAY
                if rq > new_value:
                    best_new, new_value = move, rq
            elif child.proof != lost:
                rn = amaf_visits[move]
                rq = amaf_wins[move] / rn if rn else FIRST_PLAY
                n = child.visits
                q = child.wins / n
                value = q + rn / (rn + n + bias * rn * n) * (rq - q) + scale / sqrt(n)
                if value > best_value:
                    best_move, best_value = move, value
        if best_new >= 0 and new_value + scale > best_value:
            return best_new
        return best_move if best_move >= 0 else node.moves[0]  # (every move lost: any will do)

    def _search(self, root: Node, deadline: float) -> None:
        rng = self.rng
        bits = rng.getrandbits
        clock = time.perf_counter
        playout = self.playout
        actors = rules.ACTORS
        iterations = 0
        fixed = self.fixed_iterations
        solver = self.solver
        prior, learned = self.prior, self.learned
        if learned:
            root.race = Race(root.board)  # (nodes made below it from now on read their moves with it)
        if root.moves is None:
            root.expand(rng, prior, learned)
        if root.proof != rules.ONGOING:  # decided already: nothing to search
            if root.moves and not root.tried:  # (a win in one, found when the node was expanded)
                root.child(root.moves[0])
            self.iterations = 0
            return
        while iterations < fixed if fixed else (iterations == 0 or clock() < deadline):
            iterations += 1
            node = root
            path = [node]
            # Down the tree to a new node (or the end of the game, or a proven outcome).
            while node.proof == rules.ONGOING:
                if node.moves is None:
                    node.expand(rng, prior, learned)
                    if node.proof != rules.ONGOING:  # a win in one, or no legal move
                        break
                node = node.child(self._select(node))
                path.append(node)
                if node.visits == 0:
                    break
            played = ([], [])
            if node.proof != rules.ONGOING:
                outcome = node.proof
            else:
                outcome = playout(node.board, node.turns, bits, rules.MAX_TURNS, played)
            if solver and node.proof != rules.ONGOING:
                for i in range(len(path) - 2, -1, -1):
                    if not _prove(path[i]):
                        break
            # Back up: each node's own statistics, and AMAF for its mover's tiles played after it
            # (in the tree below it, its own move included, and in the playout).
            blue_later, orange_later = set(played[0]), set(played[1])
            for i in range(len(path) - 1, -1, -1):
                visited = path[i]
                visited.visits += 1
                visited.wins += _REWARD[visited.by][outcome]
                if not visited.moves:  # the game is over here, or the node is a leaf not expanded
                    continue
                mover = actors[visited.turns]
                later = blue_later if mover == rules.BLUE else orange_later
                if i + 1 < len(path):
                    later.add(path[i + 1].move)
                reward = _REWARD[mover][outcome]
                amaf_visits, amaf_wins = visited.amaf_visits, visited.amaf_wins
                for tile in later:
                    amaf_visits[tile] += 1
                    amaf_wins[tile] += reward
            if root.proof != rules.ONGOING:
                break
        self.iterations = iterations


def _options(argv: list[str]) -> dict:
    """`--seed N` and `--iterations N` from the command line (CodinGame gives none); anything else
    ends the process with one line and exit status 2 (no argparse: this file is the submission).
    The seed, if not given there, from the environment, where the arena puts it (`referee.platform.bot_env`)."""
    options = {"seed": given_seed()}
    flags = {"--seed": "seed", "--iterations": "iterations"}
    for flag, value in zip(argv[::2], argv[1::2] + [""] * (len(argv) % 2), strict=True):
        if flag not in flags or not value.lstrip("-").isdigit() or (flag == "--iterations" and int(value) < 0):
            print(
                f"pure mcts: options are --seed N and --iterations N (N >= 0), not {flag} {value}".rstrip(),
                file=sys.stderr,
            )
            sys.exit(2)
        options[flags[flag]] = int(value)
    return options


if __name__ == "__main__":
    main(MCTSBot(**_options(sys.argv[1:])))
