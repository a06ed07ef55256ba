"""Protocol (D): a game refereed in the pre-2018 relay protocol, the one cg-brutaltester's
`OldGameThread` speaks to the referees the community rewrote for older CodinGame games (Ghost in
the Cell, Coders of the Caribbean...): the referee sees only lines, the runner starts the players and
relays lines between them.

What we follow, from the public sources (dreignier/cg-brutaltester: OldGameThread.java for the
runner's side, PlayerStats.add(String) for the result line; dreignier/cg-referee-ghost-in-the-cell:
Referee.java for a referee's side):

- We send `###Seed N` (optional: without it the referee draws its own), then `###Start N`, N the
  number of players.
- The referee then prints, in any order:
  `###Input k`, then the lines for player k, up to the next line that starts with `###`: we give
  them to player k (its clock starts when they are written);
  `###Output k n`: we read n lines from player k and write them to the referee;
  `###Error k text` (OldGameThread logs it as player k's error): counted as player k's invalid
  answer, and the game goes on;
  `###End G1 G2 ...`: the result, the players in order of their places, each group Gi the digits
  of the players sharing place i (`###End 01 2`: players 0 and 1 tied first, player 2 last).
- The protocol has no timeout nor limit of its own (OldGameThread waits for ever): ours are
  `first_turn_ms` for a player's first answer and `turn_ms` after, counted from the write of its
  last input. Nor can it tell the referee that a player failed: a player that times out, crashes or
  cannot start ends the game at once, that player last and the others tied (the referee is then
  stopped; it never saw the failure).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.platform.limits import FIRST_TURN_MS, TURN_MS

from arena.games.base import Milliseconds, Outcome
from arena.games.runner import REFEREE_LINE_BYTES, Referee, RefereeGame, Seats, garbage, outcome

PROTOCOL = "relay"
MAX_PLAYERS = 10  # the protocol names a player by one digit
INPUT_BYTES = 8 * REFEREE_LINE_BYTES  # one input block, at most
REPORTED_ERRORS = 50  # `###Error` lines kept in Outcome.data
ERRORS_IN_A_ROW = 1000  # `###Error` lines with no other command between them: a referee gone wrong


@dataclass(kw_only=True)
class RelayGame(RefereeGame):
    """A game refereed in the relay protocol (see the module's docstring). Plain data. `command`:
    the referee's command line, or its jar (run as `java JAVA_OPTIONS -jar JAR`); `send_seed`: send
    `###Seed N`; `first_turn_ms`, `turn_ms`: each player's limits."""

    name: str = PROTOCOL
    first_turn_ms: Milliseconds = FIRST_TURN_MS
    turn_ms: Milliseconds = TURN_MS

    protocol = PROTOCOL
    max_players = MAX_PLAYERS
    jar_main = ("-jar", "{jar}")

    def _play(self, referee: Referee, seats: Seats, seed: int) -> Outcome:
        referee.send(([f"###Seed {seed}"] if self.send_seed else []) + [f"###Start {self.seats}"])
        reported: list[str] = []
        places: list[int] | None = None
        errors_in_a_row = 0
        line = referee.read_line("its first command")
        while places is None:
            errors_in_a_row = errors_in_a_row + 1 if line.startswith("###Error") else 0
            if errors_in_a_row > ERRORS_IN_A_ROW:
                raise referee.failure(
                    f"the referee sent {ERRORS_IN_A_ROW:,} ###Error lines in a row (the last: {garbage(line)})"
                )
            if line.startswith("###Input"):
                seat = self._seat(line, line[len("###Input") :].split(), 1, referee)[0]
                block, size = [], 0
                line = referee.read_line(f"player {seat}'s input or its next command")
                while not line.startswith("###"):
                    block.append(line)
                    size += len(line)
                    if size > INPUT_BYTES:
                        raise referee.failure(
                            f"the referee's input for player {seat} ran past {INPUT_BYTES:,} characters"
                        )
                    line = referee.read_line(f"player {seat}'s input or its next command")
                seats.send(seat, block, self.limit_ms(seats, seat) / 1000)
            elif line.startswith("###Output"):
                seat, count = self._seat(line, line[len("###Output") :].split(), 2, referee)
                answer, _ = seats.answer(seat, count, self.limit_ms(seats, seat) / 1000)
                if answer is None:  # the protocol cannot say so to the referee: the game ends here
                    break
                referee.send(answer)
                line = referee.read_line("its next command")
            elif line.startswith("###Error"):
                seat = self._seat(line, line[len("###Error") :].split()[:1], 1, referee)[0]
                if len(reported) < REPORTED_ERRORS:
                    reported.append(line[:1000])
                if seats.errors[seat] is None:
                    seats.errors[seat] = "invalid"
                    seats.details[seat] = f"the referee reported player {seat}: {line[len('###Error') :].strip()[:200]}"
                line = referee.read_line("its next command")
            elif line.startswith("###End"):
                places = self._places(line, referee)
            else:
                raise referee.failure(f"the referee printed {garbage(line)} where a ### command was due")
        if places is not None:
            referee.finish()
        else:  # a player failed: the others share the first place
            places = [0] * self.seats
        return outcome(
            referee,
            seats,
            list(seats.errors),
            seats.details,
            ranked_by=[-place for place in places],
            scores=[None] * self.seats,
            turns=sum(seats.answered),
            data={"reported_errors": reported, "places": places},
        )

    def _seat(self, line: str, words: list[str], count: int, referee: Referee) -> list[int]:
        """The `count` integers after a command (a seat first), checked."""
        try:
            numbers = [int(word) for word in words[:count]]
        except ValueError:
            numbers = []
        if len(numbers) != count or not 0 <= numbers[0] < self.seats or min(numbers) < 0:
            raise referee.failure(f"the referee printed {garbage(line)}: no such command for {self.seats} players")
        return numbers

    def _places(self, line: str, referee: Referee) -> list[int]:
        """Each seat's place (0 first) from `###End G1 G2 ...`; every seat must be placed once."""
        places: list[int | None] = [None] * self.seats
        for place, group in enumerate(line[len("###End") :].split()):
            for digit in group:
                seat = int(digit) if "0" <= digit <= "9" else -1  # (not isdigit: '²' is one)
                if not 0 <= seat < self.seats or places[seat] is not None:
                    raise referee.failure(f"the referee's result {garbage(line)} does not place each player once")
                places[seat] = place
        if None in places:
            raise referee.failure(f"the referee's result {garbage(line)} does not place each player once")
        return places  # type: ignore[return-value]
