"""Volcanoes as an arena game: our exact referee (`referee/volcanoes/match.py`) in the worker's own
process, the project's bots preloaded in it (in-process seats: seats.py), any other player as a
process. Its own bots are resolved as players by arena/players/volcanoes.py."""

from __future__ import annotations

from dataclasses import dataclass

from referee.platform.bot_errors import BotError
from referee.volcanoes.match import Result, Settings, play_game
from referee.volcanoes.replay import replay_from_moves
from referee.volcanoes.view import render

from referee.platform.limits import FIRST_TURN_MS, STDERR_BYTES_PER_TURN, TURN_MS

from arena.games.base import DamagedGame, Game, Milliseconds, Outcome, Player
from arena.games.volcanoes.seats import open_seat, turn_ms

PROTOCOL = "volcanoes"
COLOURS = ("blue", "orange")  # seat 0, seat 1
_RANKS = {"blue": [0, 1], "orange": [1, 0], "draw": [0, 0]}
STDERR_BYTES_PER_GAME = 16_384  # what a stored game keeps of its bots' stderr, turn by turn


@dataclass
class VolcanoesGame(Game):
    turn_ms: Milliseconds = TURN_MS
    first_turn_ms: Milliseconds = FIRST_TURN_MS

    protocol = PROTOCOL
    name = "volcanoes"
    seats = 2
    replays_seeds = True  # our referee: a seed's RANDOM answers are java.util.Random(seed)'s

    @property
    def settings(self) -> Settings:
        return Settings(self.turn_ms, self.first_turn_ms)

    def play(self, seed: int, players: list[Player], bot_seeds: list[int]) -> Outcome:
        settings = self.settings
        seats = []
        try:
            for colour, player, bot_seed in zip(COLOURS, players, bot_seeds, strict=True):
                try:
                    seats.append(open_seat(player, bot_seed, settings))
                except BotError as exc:
                    other = COLOURS[1 - COLOURS.index(colour)]
                    return _outcome(Result(seed, other, exc.reason, f"{colour} {exc}", 0, [], []))
            limits = tuple(settings.limits(turn_ms(player, settings.turn_ms)) for player in players)
            return _outcome(play_game(seats[0], seats[1], seed, settings, limits))
        finally:
            for seat in seats:
                seat.close()

    def replay(self, record: dict) -> dict | None:
        """The replay of a stored game, rebuilt from its moves (the store keeps no positions), with
        the turn a player forfeited (it played no move, so its moves did not show it: `arena
        analyse` left it out, and a game forfeited on its first turn had no replay) and each turn's
        stderr and time as the store kept them; None for a game of no turn (a bot that could not start)."""
        data = record.get("data") or {}
        moves = (data.get("moves") or "").split()
        forfeited = next((COLOURS[i] for i, error in enumerate(record.get("errors") or ()) if error), None)
        winner = "draw" if record["ranks"][0] == record["ranks"][1] else COLOURS[record["ranks"].index(0)]
        replay = replay_from_moves(
            moves,
            seed=record["seed"],
            players=dict(zip(COLOURS, record["seats"], strict=True)),
            winner=winner,
            reason=record["reason"],
            detail=record["detail"],
            turns=record["turns"],
        )
        log = replay["turn_log"]
        if forfeited is not None and record["turns"] == len(moves) + 1:
            log.append({"turn": record["turns"], "actor": forfeited, "move": None, "levels": [], "dormant": []})
        if not log:
            return None
        stderr, times = data.get("stderr") or [[], []], record.get("times") or [[], []]
        played = {colour: 0 for colour in COLOURS}
        for entry in log:  # (a seat's k-th turn: its k-th stderr and time, where kept)
            if entry["actor"] in played:
                seat, k = COLOURS.index(entry["actor"]), played[entry["actor"]]
                played[entry["actor"]] += 1
                if k < len(stderr[seat]):
                    entry["stderr"] = stderr[seat][k]
                if k < len(times[seat]):
                    entry["time_ms"] = times[seat][k]
        return replay

    def replay_page(self, record: dict) -> str | None:
        try:
            replay = self.replay(record)
            return render(replay) if replay else None
        except ValueError as exc:  # (moves no game has: the rules say which and why)
            raise DamagedGame(str(exc)) from None
        except (TypeError, KeyError, AttributeError, IndexError) as exc:  # (fields of no type)
            raise DamagedGame(f"its record's fields are not of their types ({type(exc).__name__}: {exc})") from None


def _outcome(result: Result) -> Outcome:
    """Our referee's result as the contract's outcome: blue is seat 0."""
    forfeit = result.reason in ("timeout", "invalid", "crash", "start")
    loser = None if result.winner == "draw" else COLOURS[1 - COLOURS.index(result.winner)]
    times = [[t.time_ms for t in result.turn_log if t.actor == c and t.time_ms is not None] for c in COLOURS]
    stderr = [[t.stderr for t in result.turn_log if t.actor == c] for c in COLOURS]
    return Outcome(
        ranks=_RANKS[result.winner],
        scores=[None, None],
        errors=[result.reason if forfeit and c == loser else None for c in COLOURS],
        reason=result.reason,
        detail=result.detail,
        turns=result.turns,
        times_ms=times,
        stderr=_bounded(stderr),
        data={"moves": " ".join(result.moves)},
        late=result.late,
    )


def _bounded(stderr: list[list[str]]) -> list[list[str]]:
    """Each turn's stderr as the seat kept it (at most STDERR_BYTES_PER_TURN), the game's at most
    STDERR_BYTES_PER_GAME: later turns past it keep nothing."""
    left = STDERR_BYTES_PER_GAME
    kept = []
    for turns in stderr:
        seat = []
        for text in turns:
            text = text[:STDERR_BYTES_PER_TURN] if left > 0 else ""
            left -= len(text)
            seat.append(text)
        kept.append(seat)
    return kept
