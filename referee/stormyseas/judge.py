"""Judge a Stormy Seas answer: replay it slide by slide (the runner is referee/judging.py).

The optima come from the exact search in search.py, so any card can be judged, not only the known
ones (`with_optima=False` skips them). The card goes to the solver as 8 lines and its stdin stays
open, as on CodinGame: a solver reads 8 lines, not to the end of its input. The time limit includes
the solver's start-up (a numba solver compiles its kernel on its very first run).
"""
from __future__ import annotations

from dataclasses import dataclass

from referee.errors import InputFormatError
from referee.puzzle import NONE
from referee.stormyseas import rules, search
from referee.stormyseas.rules import Card


@dataclass
class Replay:
    solved: bool
    error: str | None  # the first illegal slide and why, or why the answer does not solve the card
    units: int | None  # as written in the answer (None when it cannot be read)
    slides: int | None
    states: list[rules.State]  # the start, then the state after each legal slide


NO_SOLUTION = NONE  # what a solver answers for a card it proves unsolvable


@dataclass
class Verdict:
    puzzle: int
    solved: bool
    error: str | None
    units: int | None
    slides: int | None
    optimum_units: int | None
    optimum_slides: int | None
    time_ms: int | None
    answer: str | None

    def line(self) -> str:
        head = f"card {self.puzzle}: "
        if self.solved:
            units = _versus(self.units, self.optimum_units)
            slides = _versus(self.slides, self.optimum_slides)
            text = head + f"solved in {units} unit moves, {slides} slides"
        elif self.error is None:  # a right NONE
            text = head + f"{NO_SOLUTION}, right: the card has no solution"
        else:
            text = head + f"not solved: {self.error}"
        return text + (f" ({self.time_ms} ms)" if self.time_ms is not None else "")


def _versus(value: int, optimum: int | None) -> str:
    if optimum is None:
        return str(value)
    return f"{value} (optimal)" if value == optimum else f"{value} (optimum {optimum})"


def replay(card: Card, line: str, *, rotation: bool = False) -> Replay:
    """Replay a solution line on a card, slide by slide."""
    try:
        slides = rules.parse_solution(line, rotation=rotation)
    except InputFormatError as exc:
        return Replay(False, str(exc), None, None, [card.start])
    units, count = rules.unit_count(slides), len(slides)
    states = [card.start]
    for i, slide in enumerate(slides, 1):
        if rules.is_won(card, states[-1]):
            return Replay(False, f"slide {i} '{slide}': the red boat is already in the port", units, count, states)
        after, why = rules.apply_slide(card, states[-1], slide, rotation=rotation)
        if after is None:
            return Replay(False, f"slide {i} '{slide}': {why}", units, count, states)
        states.append(after)
    if rules.is_won(card, states[-1]):
        return Replay(True, None, units, count, states)
    why = "the red boat is not in the port after the last slide"
    if rules.at_port_mouth(card, states[-1]):
        why += " (it is at the port mouth: the 2 moves down into the port are missing)"
    return Replay(False, why, units, count, states)


def optima(card: Card, *, rotation: bool = False) -> tuple[int | None, int | None]:
    """The fewest unit moves and the fewest slides (None, None when the card has no solution)."""
    by_units = search.solve(card, "units", rotation=rotation)
    if by_units is None:
        return None, None
    return by_units.units, search.solve(card, "slides", rotation=rotation).slide_count


def oracle(card: Card, *, rotation: bool = False, with_optima: bool = True) -> tuple[int | None, int | None]:
    """The optima the judge reports: (None, None) without `with_optima` (a NONE answer still gets
    them, in `verdict`)."""
    return optima(card, rotation=rotation) if with_optima else (None, None)


def verdict(card: Card, answer: str, seconds: float, optimum: tuple[int | None, int | None], *, puzzle: int = 1,
            rotation: bool = False, with_optima: bool = True) -> Verdict:
    """The verdict on one answer line, given the card's `oracle`."""
    best_units, best_slides = optimum
    time_taken = round(seconds * 1000)
    if answer.strip() == NO_SOLUTION:
        if not with_optima:
            best_units, best_slides = optima(card, rotation=rotation)
        wrong = None if best_units is None else f"answered {NO_SOLUTION}, but the card is solved in {best_units} unit moves"
        return Verdict(puzzle, False, wrong, None, None, best_units, best_slides, time_taken, answer)
    result = replay(card, answer, rotation=rotation)
    return Verdict(
        puzzle, result.solved, result.error, result.units, result.slides, best_units, best_slides, time_taken, answer
    )


def failed(optimum: tuple[int | None, int | None], failure: str, *, puzzle: int = 1) -> Verdict:
    """The verdict on a solver that gave no answer."""
    return Verdict(puzzle, False, failure, None, None, *optimum, None, None)


def summary(verdicts: list[Verdict]) -> str:
    solved = [v for v in verdicts if v.solved]
    text = f"solved {len(solved)}/{len(verdicts)}"
    if solved:
        units = sum(v.units for v in solved)
        slides = sum(v.slides for v in solved)
        text += f"; on those: {units} unit moves, {slides} slides"
        if all(v.optimum_units is not None for v in solved):
            optimal = sum(v.units == v.optimum_units for v in solved)
            optimal_slides = sum(v.slides == v.optimum_slides for v in solved)
            text += f"; optimal in unit moves {optimal}/{len(solved)}, in slides {optimal_slides}/{len(solved)}"
    times = [v.time_ms for v in verdicts if v.time_ms is not None]
    if times:
        text += f"; solver time {sum(times)} ms in total, {max(times)} ms at most"
    return text
