"""`referee stormyseas ...`: show a card or a solution, time the search (`judge` is the one judge
runner's, referee/judging.py)."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from referee.errors import InputFormatError, refuse
from referee.stormyseas import rules, search, view


def register(commands) -> None:
    """The commands of `referee stormyseas` beyond `judge`."""
    p = commands.add_parser("show", help="draw a card, and the states of a solution")
    p.add_argument("file", help="a card file")
    p.add_argument("--card", type=int, default=1, help="which card of the file (1-based, default 1)")
    p.add_argument("--solution", help='a solution line, e.g. "4L2, 5L2, XU3, ..."')
    p.add_argument("--rotation", action="store_true", help="allow the red boat's quarter turns")
    p.add_argument("--svg", metavar="OUT", help="also write every frame to this SVG file")
    p.add_argument("--delay", type=float, default=0.0, help="seconds between frames, redrawn in place")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    p.set_defaults(run=run_show)

    p = commands.add_parser("bench", help="time the optimal search on every card of a file")
    p.add_argument("file", help="a card file")
    p.add_argument("--metric", choices=(*search.METRICS, "both"), default="units")
    p.add_argument("--rotation", action="store_true", help="allow the red boat's quarter turns")
    p.set_defaults(run=run_bench)


def _read_cards(path: str) -> list[rules.Card]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputFormatError(f"cannot read {path}: {exc.strerror}") from None
    return rules.parse_cards(text)


def run_show(args: argparse.Namespace) -> int:
    try:
        cards = _read_cards(args.file)
        if not 1 <= args.card <= len(cards):
            raise InputFormatError(f"--card {args.card}: the file has {len(cards)} card(s)")
        card = cards[args.card - 1]
        slides = rules.parse_solution(args.solution, rotation=args.rotation) if args.solution else []
    except InputFormatError as exc:
        return refuse(args, str(exc))
    frames = [(card.start, "start")]
    error = None
    units = 0
    for i, slide in enumerate(slides, 1):
        after, why = rules.apply_slide(card, frames[-1][0], slide, rotation=args.rotation)
        if after is None:
            error = f"slide {i} '{slide}' is illegal: {why}"
            break
        units += slide.distance
        frames.append((after, f"slide {i}/{len(slides)} {slide} ({units} units)"))
    if slides and error is None:
        last, caption = frames[-1]
        frames[-1] = (last, caption + (" solved" if rules.is_won(card, last) else " not solved"))
    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    for k, (state, caption) in enumerate(frames):
        if args.delay and k:
            time.sleep(args.delay)
            if sys.stdout.isatty():
                print("\x1b[H\x1b[2J", end="")
        print(view.text_frame(card, state, caption, color=color), end="\n\n", flush=True)
    if args.svg:
        Path(args.svg).write_text(view.svg_frames(card, frames))
    if error:
        print(error, file=sys.stderr)
        return 1
    return 0


def run_bench(args: argparse.Namespace) -> int:
    try:
        cards = _read_cards(args.file)
    except InputFormatError as exc:
        return refuse(args, f"{args.file}: {exc}")
    metrics = search.METRICS if args.metric == "both" else (args.metric,)
    search.solve(cards[0], metrics[0], rotation=args.rotation)  # load (or compile) the kernel untimed
    for metric in metrics:
        total_cpu = total_wall = 0.0
        for i, card in enumerate(cards, 1):
            wall, cpu = time.perf_counter(), time.process_time()
            solution = search.solve(card, metric, rotation=args.rotation)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            total_cpu += cpu
            total_wall += wall
            figures = "no solution" if solution is None else f"{solution.units} units, {solution.slide_count} slides"
            states = "" if solution is None else f", {solution.explored:,} states"
            print(f"{metric:6} card {i}: {figures}{states}; {cpu:.2f} s cpu, {wall:.2f} s wall", flush=True)
        print(f"{metric:6} all {len(cards)} cards: {total_cpu:.2f} s cpu, {total_wall:.2f} s wall", flush=True)
    return 0
