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

from arena.games.base import Game, Outcome, Player, ranks_from_scores
from arena.games.runner import REFEREE_LINE_BYTES, Referee, Seats, first_error, garbage, java_command
from arena.games.sdk import check_program
from referee.errors import UserError
from referee.process import split_command, warm_up

PROTOCOL = "relay"
MAX_PLAYERS = 10  # the protocol names a player by one digit
INPUT_BYTES = 8 * REFEREE_LINE_BYTES  # one input block, at most
REPORTED_ERRORS = 50  # `###Error` lines kept in Outcome.data


class RelayGame(Game):
    """A game refereed in the relay protocol (see the module's docstring). Plain data."""

    def __init__(
        self,
        command: str | list[str],
        players: int = 2,
        *,
        name: str = PROTOCOL,
        send_seed: bool = True,
        java_options: list[str] | tuple[str, ...] = (),
        first_turn_ms: float = 1000.0,
        turn_ms: float = 100.0,
        reply_s: float = 30.0,
        game_s: float = 300.0,
        cwd: str | None = None,
    ):
        """`command`: the referee's command line, or its jar (run as `java JAVA_OPTIONS -jar JAR`).
        `send_seed`: send the arena's seed (`###Seed N`). `first_turn_ms`, `turn_ms`: each player's
        limits. `reply_s`: the longest wait for any one line of the referee; `game_s`: for the game."""
        if not isinstance(players, int) or not 2 <= players <= MAX_PLAYERS:
            raise UserError(f"a relay game is for 2 to {MAX_PLAYERS} players, not {players!r}")
        for label, value in (("first_turn_ms", first_turn_ms), ("turn_ms", turn_ms)):
            if not value > 0:
                raise UserError(f"{label} must be positive, not {value!r}")
        for label, value in (("reply_s", reply_s), ("game_s", game_s)):
            if not value > 0:
                raise UserError(f"{label} must be positive, not {value!r}")
        split_command(command)
        self.command = command
        self.name = name
        self.seats = players
        self.send_seed = send_seed
        self.java_options = list(java_options)
        self.first_turn_ms = first_turn_ms
        self.turn_ms = turn_ms
        self.reply_s = reply_s
        self.game_s = game_s
        self.cwd = cwd

    def config(self) -> dict:
        return {
            "protocol": PROTOCOL,
            "command": self.command,
            "players": self.seats,
            "name": self.name,
            "send_seed": self.send_seed,
            "java_options": list(self.java_options),
            "first_turn_ms": self.first_turn_ms,
            "turn_ms": self.turn_ms,
            "reply_s": self.reply_s,
            "game_s": self.game_s,
            "cwd": self.cwd,
        }

    def referee_command(self) -> tuple[list[str], dict[str, str]]:
        """The referee's argument list and environment (a jar runs as `java OPTIONS -jar JAR`)."""
        return java_command(self.command, ["-jar", "{jar}"], self.java_options, [])

    def prepare(self, players: list[Player], log) -> None:
        check_program(self.command, self.cwd)
        for player in players:
            warm_up(player.target, player.cwd, log=log, label=player.label)

    def play(self, seed: int, players: list[Player], bot_seeds: list[int]) -> Outcome:
        if len(players) != self.seats:
            raise ValueError(f"{self.name} is a {self.seats}-player game, not {len(players)}")
        args, env = self.referee_command()
        referee = None
        seats = None
        try:
            referee = Referee(args, env=env, cwd=self.cwd, reply_s=self.reply_s, game_s=self.game_s)
            seats = Seats(players, bot_seeds)
            return self._play(referee, seats, seed)
        finally:
            if seats is not None:
                seats.close()
            if referee is not None:
                referee.close()

    def _limit_s(self, seats: Seats, seat: int) -> float:
        return (self.first_turn_ms if seats.answered[seat] == 0 else self.turn_ms) / 1000

    def _play(self, referee: Referee, seats: Seats, seed: int) -> Outcome:
        referee.send(([f"###Seed {seed}"] if self.send_seed else []) + [f"###Start {self.seats}"])
        reported: list[str] = []
        places: list[int] | None = None
        line = referee.read_line("its first command")
        while places is None:
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
                seats.send(seat, block, self._limit_s(seats, seat))
            elif line.startswith("###Output"):
                seat, count = self._seat(line, line[len("###Output") :].split(), 2, referee)
                answer, _ = seats.answer(seat, count, self._limit_s(seats, seat))
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
        errors = list(seats.errors)
        reason, detail = first_error(errors, seats.details)
        referee.close()
        return Outcome(
            ranks=ranks_from_scores([-place for place in places], errors),
            scores=[None] * self.seats,
            errors=errors,
            reason=reason,
            detail=detail,
            turns=sum(seats.answered),
            times_ms=seats.times_ms,
            stderr=seats.stderr,
            fingerprint=seats.fingerprint(),
            data={"first_inputs": seats.kept_first_inputs(), "reported_errors": reported, "places": places},
            referee_stderr=referee.stderr(),
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
                seat = int(digit) if digit.isdigit() else -1
                if not 0 <= seat < self.seats or places[seat] is not None:
                    raise referee.failure(f"the referee's result {garbage(line)} does not place each player once")
                places[seat] = place
        if None in places:
            raise referee.failure(f"the referee's result {garbage(line)} does not place each player once")
        return places  # type: ignore[return-value]


def from_config(config: dict) -> RelayGame:
    """The game `RelayGame.config()` describes (its "protocol" key aside)."""
    options = {key: value for key, value in config.items() if key != "protocol"}
    command = options.pop("command", None)
    if command is None:
        raise UserError("a relay game needs its referee's command (or its jar)")
    try:
        return RelayGame(command, **options)
    except TypeError as exc:
        raise UserError(f"a relay game's settings: {exc}") from None
