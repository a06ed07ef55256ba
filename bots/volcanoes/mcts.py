"""`mcts`: UCT in jitted code (see `uct.py` and `search/tree.py`) with what measurably wins:
RAVE (AMAF values blended into the selection; c and k tuned by SPSA, see `registry.PARAMETERS`),
playouts that take a connecting placement or block the opponent's (`decisive`), MCTS-Solver, and
its first moves from an opening book (below).

A child that neither its own visits nor AMAF have valued yet is valued at `first_play` = 0.6, a
little above an even game, where it used to be tried before every other child: +83 Elo [+44,
+123] (`arena sprt`, H1 after 173 pairs at 100 ms; see `registry.PARAMETERS`). Among some 70
children, that rule spent the first visits of every new node on the moves no playout through it
had played, before the ones that AMAF already rated.

The tree is kept between turns (`reuse`): the subtree of the position shown next is copied into
a second tree, and the search goes on from there. Both trees have 2M rows (`capacity`), where
one of 512K rows often filled within a turn: together +28 Elo [+8, +47] (`arena sprt`, H1 after
553 pairs at 100 ms; see `registry.PARAMETERS`), where neither decided alone. A player moving
twice in a row, across a growth, keeps the subtree of its own move, a large one (10 ms or more of
the turn to copy): while half the tree is free, that node becomes the root in place instead
(`tree.reroot`, `UctBot._copy_kept`), and the same search starts sooner. Over 6 games against uct
(3 seat-swapped pairs, one game at a time, seed 11), copying took 0.40 ms a turn on average where
it took 2.54, and 4.3 ms at most where it took 13.6.

Its trees are laid out by column (`tree.new_tree`), so that RAVE's selection reads a block of
children's statistics in vector instructions: 1.27x the iterations a second, +33 Elo [+11, +56]
(`arena sprt mcts mcts@2cbbf64`, H1 after 424 pairs at 100 ms, the old version as a process).

The same search then ran faster again, iteration for iteration the same tree and the same moves:
the decisive playouts skip the search for the mover's winning placement when the last move cannot
have made one (`bitboard.playout`), and the connection test of a placement that search has shown
connects nothing; RAVE's selection takes its best value as eight running maxima; a component grows
a layer at a time (`bitboard.component`); a new node's children are shuffled with the generator's
state in a register. `arena bench --against 863ce50`: mcts 1.237x the iterations a CPU second
[1.222, 1.252], decisive playouts 1.322x [1.305, 1.340], uct unchanged (1.002x). Against the old
version as a process, +8 Elo [-12, +28] after 550 pairs at 100 ms (`arena sprt mcts mcts@863ce50
--seed 4600`, stopped undecided; 2 games on 2 cores); against uct, 94.2% (1883-1-116, `arena
match mcts uct --pairs 1000 --seed 4500`), where the old one scored 92.9% over 1,700 games.

It searches 0.9 of a turn's budget where uct searches 0.75 (`time_fraction`, see
`registry.PARAMETERS`: +21 Elo). `expand` (a leaf's visits before it gets children; SPSA kept it
at 1) and `first_turn` (the budget taken on the first turn: 1.0 scored -8 Elo [-44, +28] over 346
games, and 0.9, the tree being kept for the next turn, -2 [-21, +17] over 600 pairs in `arena sprt
mcts:first_turn=0.9 mcts --seed 3605`; against uct, 1.0 scored 94.0% where 0.3 scored 92.8% on
the same 2,000 games, `arena match mcts:first_turn=1.0 uct --pairs 250 --seed 3903-3906`: +1.3
points [-0.3, +2.9] per game, undecided; after the speed-up above, 93.55% where 0.3 scored 93.55%
on the same 500 pairs, seed 4500; 0.8 with `time_fraction` 1.0, +0.64 points [-0.40, +1.67] a
pair over 2,000 pairs, seeds 4500 and 4800, see `registry.PARAMETERS`) are options for matches,
as is `iterations` (a fixed number a turn).

Its first moves come from the pure engine's opening book (`pure/book.py`; `opening=0` searches
them): numba mcts's own searches, two to twenty times a turn's, on every line the opponent can
choose up to orange's fourth move. It wins +60 Elo against mcts without it, and +2.43 points a
pair against uct (the runs: `registry.PARAMETERS`), as much as some 1.8 times the search gives
(2.9 points a doubling, below). Two booked players play the book's one line in every
game, up to its end (orange's fourth move, turn 10).

Tried and dropped, each for want of a match that it wins (in this branch's history):
- a neighbourhood prior; answers only to a threatened connection in the tree; last good
  replies in playouts;
- the AMAF priors that pure-mcts gains from (20 virtual visits at 0.75 for a raise that erupts
  beside an enemy, at 0.3 for a tile beside own volcanoes about to erupt): -2 Elo [-23, +19] over
  1,000 games at 100 ms;
- playouts that draw a raise of an own volcano again half the time (raises look wasted, growth
  does them anyway): -24 Elo [-48, +0] over 775 games;
- a solver that also proves at expansion a raise erupting into a win, and every child's edge when
  the growth after the move would end the game (most losses to uct come at a growth): +7 Elo
  [-4, +17], undecided after 2,172 pairs at 100 ms (14 games at once on 16 cores); on the same
  seeds 69.0-71.5% against uct:ms=1000 where mcts scored 61.0-72.8%, and 81.0% against uct where
  it scored 86.8%;
- decisive playouts that also keep the coming growth from connecting the opponent (a raise of an
  own level-3 volcano, or a placement beside an enemy one; 21% fewer iterations): -92 Elo [-140,
  -47], H0 after 113 pairs at 100 ms (2 games on 2 cores);
- implicit minimax backups (Lanctot et al. 2014: each new node's static evaluation from
  `search/evaluate.py`, without its look past the growth, as a winning chance at 200 units a
  logit, backed up by minimax and weighted 0.2 in a child's mean; 37% fewer iterations): -53 Elo
  [-89, -19], H0 after 180 pairs at 100 ms (2 games on 2 cores). At 6,000 iterations a move, with
  the look past the growth, weight 0.2 scored +28 [-16, +73] and 0.5 scored -37 [-88, +13]
  (100 pairs each): the evaluation adds little that the playouts do not know;
- playouts that strike (raise an own level-3 volcano touching an enemy piece, so that it erupts)
  one move in K when they can, the pure engine's strike prior as a playout policy (2% fewer
  iterations): at 6,000 iterations a move, -91 Elo [-144, -41] at K = 1 and -7 [-58, +44] at
  K = 3 (100 pairs each);
- quality-based rewards (Pepels et al. 2014): a simulation's result shaded towards a draw by up to
  0.1, the more the longer it ran from the root (40 turns or more: the most), so that quick wins
  count more: -3 Elo [-23, +16] over 600 pairs at 100 ms (`arena sprt mcts:quick_wins=0.1 mcts
  --seed 3604`), and 92.3% against uct where mcts scored 94.5% on the same seeds (400 games);
- Poolrave (Rimmel et al. 2010): a playout's move that is not decisive is, at a chance p, one of
  the ten moves of the mover's colour with the best AMAF means near the root (refreshed every
  batch), when legal: p = 0.3 scored +8 Elo [-11, +27] and p = 0.6 +9 [-10, +27] over 600 pairs
  each at 100 ms (`arena sprt mcts:pool=P mcts --seed 3607/3608`), but against uct p = 0.6 scored
  92.4% where mcts scored 93.3% on the same seeds (800 games);
- in the decisive playouts, each colour's winning tile kept until a turn may change it (its own
  placement, an eruption, its tile taken), not searched on every move: every move the same, but
  0.90x the playouts a second from mid-game positions (the bookkeeping costs more than the third
  of the searches it saves; what stayed is one flag, for the one case where the answer is known
  without bookkeeping: none);
- RAVE's update of a node's children without a branch, over bit sets of the tiles each colour
  played (vector shifts): 0.98x the iterations a second [0.94, 1.01] at 2,000 iterations on each
  of 24 mid-game positions, 1.04x [1.00, 1.07] at 8,000 (30 and 10 alternating rounds): the
  branch it removes is well predicted, most children not having been played (and again, each
  child's bit read from the PLAYED row and added: 1.00x the CPU time of 6 games at 12,000
  iterations a move, 6 alternating runs);
- playouts whose move is, half the time, a random legal tile beside the last move played (local
  answers, as in Hex's and Go's playout policies): -14 Elo [-34, +7], H0 after 547 pairs at 100 ms
  (`arena sprt mcts:local=0.5 mcts --elo0 0 --elo1 15 --seed 3704`);
- RAVE's weight by Silver's minimum-MSE schedule, beta = a / (n + a + 4 b^2 n a) over n visits and
  a AMAF visits (b = 0.029 matches k = 304 where AMAF visits abound): at 3,000 iterations a move,
  100 pairs each (`arena match "mcts:iterations=3000,rave_bias=B" mcts:iterations=3000`, seeds
  3801-3802), b = 0.008 -10 Elo [-56, +35], 0.015 +38 [-7, +85] and -10 [-60, +38], 0.03 -19
  [-64, +25], 0.06 +0 [-46, +46]: no better than the schedule it would replace;
- (this and the two below were not committed: each is what its line says) a swindle when every
  move is a proven loss (40 of 43 games lost to uct were proven lost two to six moves before
  their end): a second search without the solver for the rest of the turn, its most visited move
  played, the one random play most often survives. Against uct 92.8%
  (556-2-42) where mcts scored 92.8% (556-1-43) on the same 300 pairs (`arena match
  mcts:swindle=1 uct --seed 4100`): uct finds the wins the solver proves;
- playouts that avoid the tiles the coming growth undoes (next to an enemy volcano at level 3,
  the mover's own level-3 volcanoes excepted): at 3,000 iterations a move, +6 Elo [-28, +41] over
  200 pairs (seed 4200);
- AMAF over a playout's first turns only (cutoff AMAF, Helmbold and Parker-Wood 2009), since a
  tile's worth in Volcanoes depends on when it is taken (growth and eruptions): at 3,000
  iterations a move, 200 pairs each (seed 4400), the first 3 turns -3 Elo [-38, +31], the first 9
  -24 [-59, +9];
- (not committed either) a new node's children starting from the AMAF statistics of their tiles
  at their player's previous choice on the path (MoGo's grandfather heuristic), at most K visits
  at the same mean: at 4,000 iterations a move against uct (`arena match
  "mcts:iterations=4000,inherit=K" uct --pairs 200 --seed 5000`), 87.2%, 86.5%, 88.6% and 85.8%
  for K = 8, 20, 60 and 200, where mcts scored 83.9%; but at 100 ms, on the 1,000 pairs (seed
  4500) where mcts scored 94.2%, K = 60 scored 92.2% (1842-5-153), and K = 20, the tiles played
  since that choice inheriting nothing (a placement there is a raise now), 93.5% (1868-2-130).
  The gain of a fixed, small search does not survive a turn's 15,000 iterations and the kept tree;
- (not committed) two playouts from each new leaf, backed up one after the other (1.24x the
  playouts a second, 0.62x the iterations): 93.0% (1858-2-140) against uct on the same 1,000
  pairs (seed 4500) where mcts scored 94.2%.

How mcts without the book loses to uct (the 116 losses of `arena match mcts uct --pairs 1000 --seed
4500`, before the book was on by default): 83 end in
a connection made by a growth's eruptions, 26 by a placement, 7 by a raise, where 98% of its 1,883
wins end by a placement. Searched again at 300,000 iterations a position, 3 of 30 lost games had a
proven win that mcts's turn (about 15,000 iterations) missed: eight searches of each with other
seeds chose the win 1 time in 24 at 15,000 iterations, 18 in 24 at 120,000. A forced loss that one
of its moves walked into lay deeper than four player moves: an exhaustive search that deep (8.3
million positions) proved nothing. What is missing is depth more than a rule of thumb. Given 2.4
times the search (`arena match mcts:ms=200 uct --pairs 500 --seed 4800`: 153 ms a turn), mcts
scored 96.2% (962-0-38) where at 100 ms it scored 92.55% on the same 500 pairs: +3.65 points
[+1.67, +5.63], some 2.9 points a doubling. At 130 ms (90 ms a turn, 1.43 times the search),
94.3% (1883-6-111) where it scored 93.2% on the same 1,000 pairs (`arena match mcts:ms=130 uct
--pairs 1000 --seed 4800`): +1.10 points [-0.41, +2.61]. With 93.7% the mean of its 4,000 games
at 100 ms (seeds 4500 and 4800), 95% wanted some 1.5 times the iterations a turn, or more; the book
gave it: `arena match mcts uct --pairs 1000 --seed 4950` (a new seed, the book on by default), 96.1%
(1921-2-77) [95.3, 96.9] over the 1,000 seat-swapped pairs, no timeout, 73.1 ms at most (2 games
on 2 cores); against uct given ten times the time (`arena match mcts uct:ms=1000 --pairs 100 --seed
4951`), 92.5% (185-0-15) [89.0, 96.0] over 100 pairs, no timeout."""

from __future__ import annotations

if __name__ == "__main__":  # before the imports below, which load numba: answer from the first turn
    from bots.volcanoes.launch import play

    play("mcts")
    raise SystemExit

from .base import GameState
from .pure import book
from .pure import rules as pure_rules
from .registry import defaults
from .uct import UctBot

DEFAULTS = dict(defaults("mcts"), decisive=True, solver=True)  # c and rave_k: see registry.PARAMETERS


class MctsBot(UctBot):
    name = "mcts"

    def __init__(self, seed: int | None = None, **options):
        """`opening`: play the pure engine's opening book (`pure/book.py`) while the game is on it."""
        options = {**DEFAULTS, **options}
        self.use_book = bool(options.pop("opening"))
        super().__init__(seed, **options)
        self.opening: book.Opening | None = None  # this game's way through the book

    def start(self, colour: int) -> None:
        super().start(colour)
        self.opening = book.Opening() if self.use_book else None

    def choose(self, state: GameState, budget: float) -> int:
        if self.opening is not None:
            move = self.opening.move(pure_rules.from_levels(state.levels), state.turns_played)
            if move != book.NO_MOVE:
                self.searched = None  # (no tree to keep: the next search starts afresh)
                self.last_search = {}  # no search ran: no figures of one
                return move
            self.opening = None
        return super().choose(state, budget)
