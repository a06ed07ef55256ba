"""`referee stormyseas ...`: show a card or a solution (`judge` is the one judge runner's,
referee/judging.py)."""

from __future__ import annotations

import argparse
import sys
import time

from referee.platform.errors import UserError, counted
from referee.platform.files import read_text, refuse_overwriting, refuse_replacing_a_non_svg, write_atomic
from referee.platform.options import MAX_SECONDS, count, given, number
from referee.stormyseas import rules, view


def register(commands) -> None:
    """The commands of `referee stormyseas` beyond `judge`."""
    p = commands.add_parser("show", help="draw a card, and the states of a solution")
    p.add_argument("file", help="a card file")
    p.add_argument("--card", type=count(1), default=1, help="which card of the file (1-based, default 1)")
    p.add_argument("--solution", help='a solution line, e.g. "4L2, 5L2, XU3, ..."')
    p.add_argument("--rotation", action="store_true", help="allow the red boat's quarter turns")
    p.add_argument("--svg", metavar="OUT", type=given, help="also write every frame to this SVG file")
    p.add_argument(
        "--delay",
        type=number(float, least=0, most=MAX_SECONDS),
        default=0.0,
        help="seconds between frames, redrawn in place",
    )
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    p.set_defaults(run=run_show)


def _read_cards(path: str) -> list[rules.Card]:
    return rules.parse_cards(read_text(path))


def run_show(args: argparse.Namespace) -> int:
    if args.svg:
        refuse_overwriting(args.svg, args.file)
        refuse_replacing_a_non_svg(args.svg)
    cards = _read_cards(args.file)
    if not 1 <= args.card <= len(cards):
        raise UserError(f"--card {args.card}: the file has {counted(len(cards), 'card')}")
    card = cards[args.card - 1]
    slides = rules.parse_solution(args.solution, rotation=args.rotation) if args.solution else []
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
        try:
            write_atomic(args.svg, view.svg_frames(card, frames))
        except OSError as exc:
            raise UserError(f"cannot write {args.svg}: {exc.strerror or exc}") from None
    if error:  # a user's mistake, said once the frames up to it are drawn
        raise UserError(error)
    return 0
