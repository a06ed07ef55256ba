"""Random playouts per second from the opening, on one core: `python -m bots.volcanoes.bench_playouts`.

Times the bitboard core's playout loop (`search.bitboard`, uniform random legal moves, the loop
inside jitted code) and the older lean engine's (`search.playout`), each also with `mcts`'s decisive
moves, and for comparison the rules engine's `random_playout` called from Python. Figures depend on the machine's load: best of `--repeats`.
"""
from __future__ import annotations

import argparse
import time

from referee.volcanoes import rules

from .search import bitboard, playout


def _rate(run, count: int) -> tuple[float, float]:
    started = time.perf_counter()
    turns = run(count)
    seconds = time.perf_counter() - started
    return count / seconds, turns / count


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3, help="best of this many runs")
    args = parser.parse_args(argv)

    levels, dormant = rules.new_state()
    scratch = playout.new_scratch()
    playout.warm_up()
    playout.seed(1)
    bitboard.warm_up()
    board, bit_scratch, rng = bitboard.new_board(), bitboard.new_scratch(), bitboard.new_rng(1)

    def search_loop(count):
        return playout.playouts_from(levels, dormant, 0, count, False, scratch)

    def decisive_loop(count):
        return playout.playouts_from(levels, dormant, 0, count, True, scratch)

    def bitboard_loop(count, decisive=False):
        return bitboard.playouts_from(board, 0, count, decisive, bit_scratch, rng)

    def rules_loop(count):
        total = 0
        for i in range(count):
            lv, dm = rules.new_state()
            total += rules.random_playout(lv, dm, 0, 200, i)[1]
        return total

    rules_loop(1)
    best = max(_rate(bitboard_loop, args.playouts) for _ in range(args.repeats))
    print(f"search.bitboard (jitted loop): {best[0]:,.0f} playouts/s, {best[1]:.1f} turns each")
    heavy = max(_rate(lambda n: bitboard_loop(n, True), args.playouts // 4) for _ in range(args.repeats))
    print(f"search.bitboard with decisive moves: {heavy[0]:,.0f} playouts/s, {heavy[1]:.1f} turns each")
    best = max(_rate(search_loop, args.playouts) for _ in range(args.repeats))
    print(f"search.playout (jitted loop): {best[0]:,.0f} playouts/s, {best[1]:.1f} turns each")
    heavy = max(_rate(decisive_loop, args.playouts // 4) for _ in range(args.repeats))
    print(f"search.playout with decisive moves: {heavy[0]:,.0f} playouts/s, {heavy[1]:.1f} turns each")
    slow = max(_rate(rules_loop, args.playouts // 4) for _ in range(args.repeats))
    print(f"rules.random_playout (Python loop): {slow[0]:,.0f} playouts/s, {slow[1]:.1f} turns each")


if __name__ == "__main__":
    main()
