"""Judge a Stormy Seas answer: replay it slide by slide. `StormySeasJudge` is the puzzle's `Judge`
(referee/judge.py; the runner is referee/judging.py).

The optima come from the oracle, so any card can be judged, not only the known ones: it is run once
per metric (`StormySeasJudge.oracle_runs`: `--metric units`, then `--metric slides`, and
`--rotation` when judging with it, as bots.stormyseas.solver takes them), and each answer is
replayed here; the fewest unit moves are the units run's answer's, the fewest slides the slides
run's. An answer with fewer of either proves the oracle wrong. `with_optima=False` (`--no-optima`)
asks the oracle only to check a NONE. The card goes to the solver as 8 lines and its stdin stays open, as on CodinGame: a solver
reads 8 lines, not to the end of its input. The time limit includes the solver's start-up (a numba
solver compiles its kernel on its very first run).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace

from referee.answers import NONE, OracleError, is_not_optimal, not_optimal
from referee.judge import Judge
from referee.platform.errors import InputFormatError, counted, shorten
from referee.stormyseas import rules
from referee.stormyseas.rules import METRICS, Card


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
    error: str | None  # why the answer is wrong (the replay's error, or not optimal), or why the solver failed
    units: int | None
    slides: int | None
    optimum_units: int | None
    optimum_slides: int | None
    time_ms: int | None
    answer: str | None

    def describe(self) -> str:
        head = f"card {self.puzzle}: "
        if self.solved:
            units = _versus(self.units, self.optimum_units, "unit move")
            slides = _versus(self.slides, self.optimum_slides, "slide")
            text = head + f"solved in {units}, {slides}" + (": NOT optimal" if is_not_optimal(self.error) else "")
        elif self.error is None:  # a right NONE
            text = head + f"{NO_SOLUTION}, right: the card has no solution"
        else:
            text = head + f"not solved: {self.error}"
        return text + (f" ({self.time_ms} ms)" if self.time_ms is not None else "")


def _versus(value: int, optimum: int | None, noun: str) -> str:
    if optimum is None:
        return counted(value, noun)
    return f"{counted(value, noun)} ({'optimal' if value == optimum else f'optimum {optimum}'})"


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


@dataclass(frozen=True)
class StormySeasJudge(Judge):
    """The fewest unit moves and the fewest slides, the oracle run once a metric; its options are
    `--rotation` (the red boat's quarter turns, for the answers and the oracle) and `--no-optima`
    (the oracle only checks a NONE)."""

    rotation: bool = False
    with_optima: bool = True

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--rotation", action="store_true", help="allow the red boat's quarter turns (tell the solver too)"
        )
        parser.add_argument(
            "--no-optima",
            action="store_true",
            help="do not ask the oracle for the optima (only to check an answer NONE)",
        )

    def with_options(self, args: argparse.Namespace) -> StormySeasJudge:
        return replace(self, rotation=args.rotation, with_optima=not args.no_optima)

    def oracle_runs(self) -> tuple[tuple[str, ...], ...]:
        """The oracle's arguments, one run a metric."""
        return tuple(("--metric", metric, *(["--rotation"] if self.rotation else [])) for metric in METRICS)

    def needs_oracle(self, answer: str | None) -> bool:
        """Without `with_optima`, only a NONE is checked with the oracle."""
        return self.with_optima or (answer is not None and answer.strip() == NO_SOLUTION)

    def expectation(self, puzzle, card: Card, answers: list[str]) -> tuple[int | None, int | None]:
        """The fewest unit moves and the fewest slides (None, None when the card has no solution), from
        the oracle's answers by unit moves and by slides, each replayed. OracleError when one does not
        solve the card, or one says NONE and the other does not."""
        if all(answer.strip() == NO_SOLUTION for answer in answers):
            return None, None
        best = []
        for metric, answer in zip(METRICS, answers, strict=True):
            if answer.strip() == NO_SOLUTION:
                raise OracleError(f"it answered {NO_SOLUTION} by {metric}, but solved the card by the other metric")
            result = replay(card, answer, rotation=self.rotation)
            if not result.solved:
                raise OracleError(f"its answer by {metric} {shorten(answer.strip())}: {result.error}")
            best.append(result.units if metric == "units" else result.slides)
        return best[0], best[1]

    def verdict(
        self,
        puzzle,
        number: int,
        card: Card,
        optimum: tuple[int | None, int | None] | None,
        answer: str,
        seconds: float,
    ) -> Verdict:
        """The verdict on one answer line, given the card's `expectation` (None: not asked for).
        OracleError when the answer solves the card in fewer unit moves or slides than the oracle, or
        solves a card the oracle said had no solution. A solution is right when it takes the fewest
        unit moves or the fewest slides (the solver's `--metric` chooses which it minimises), or any
        solution when the optima were not asked for; else its error says it is not optimal."""
        best_units, best_slides = optimum or (None, None)
        time_taken = round(seconds * 1000)
        if answer.strip() == NO_SOLUTION:
            wrong = (
                None
                if best_units is None
                else f"answered {NO_SOLUTION}, but the card is solved in {counted(best_units, 'unit move')}"
            )
            return Verdict(number, False, wrong, None, None, best_units, best_slides, time_taken, answer)
        result = replay(card, answer, rotation=self.rotation)
        error = result.error
        if result.solved and optimum is not None:
            if best_units is None:
                raise OracleError(f"it answered {NO_SOLUTION}, but the solver's answer solves the card")
            if result.units < best_units or result.slides < best_slides:
                raise OracleError(
                    f"the solver's answer takes {counted(result.units, 'unit move')} and {counted(result.slides, 'slide')}, "
                    f"the oracle's fewest are {best_units} and {best_slides}"
                )
            if result.units > best_units and result.slides > best_slides:
                error = not_optimal(
                    f"{counted(result.units, 'unit move')} and {counted(result.slides, 'slide')}",
                    f"{counted(best_units, 'unit move')} or {counted(best_slides, 'slide')}",
                )
        return Verdict(
            number,
            result.solved,
            error,
            result.units,
            result.slides,
            best_units,
            best_slides,
            time_taken,
            answer,
        )

    def failed(
        self, puzzle, number: int, card: Card, optimum: tuple[int | None, int | None] | None, failure: str, read
    ) -> Verdict:
        """The verdict on a solver that gave no answer."""
        return Verdict(number, False, failure, None, None, *(optimum or (None, None)), None, None)

    def summary(self, verdicts: list[Verdict]) -> str:
        solved = [v for v in verdicts if v.solved]
        text = f"solved {len(solved)}/{len(verdicts)}"
        if solved:
            units = sum(v.units for v in solved)
            slides = sum(v.slides for v in solved)
            text += f"; on those: {counted(units, 'unit move')}, {counted(slides, 'slide')}"
            if all(v.optimum_units is not None for v in solved):
                optimal = sum(v.units == v.optimum_units for v in solved)
                optimal_slides = sum(v.slides == v.optimum_slides for v in solved)
                text += f"; optimal in unit moves {optimal}/{len(solved)}, in slides {optimal_slides}/{len(solved)}"
        times = [v.time_ms for v in verdicts if v.time_ms is not None]
        if times:
            text += f"; solver time {sum(times)} ms in total, {max(times)} ms at most"
        return text
