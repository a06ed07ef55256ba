"""`run_jobs` when a worker process dies: every game is recorded once, as played or as a failure of
the machine, whatever else was in flight in the pool that broke; only the game that kills its worker
when played alone is charged with it."""

import threading
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool

import pytest

from arena.play import run
from arena.play.schedule import Job


class DyingPool:
    """A pool of `tasks_in_flight` tasks in which a game with `killer` in its seats kills its worker:
    a moment after a task is submitted, the tasks in flight are settled together, as a real pool's
    are when one of its workers dies: all of them broken if any holds a killer, else played."""

    def __init__(self, tasks_in_flight: int):
        self.tasks_in_flight = tasks_in_flight
        self.flight: list[tuple[Future, list[Job]]] = []
        self.lock = threading.Lock()
        self.alone: list[bool] = []  # for each killer's task: was it alone in its pool

    def submit(self, fn, game, batch, players) -> Future:
        future: Future = Future()
        with self.lock:
            self.flight.append((future, batch))
        threading.Timer(0.01, self._settle).start()
        return future

    def _settle(self) -> None:
        with self.lock:
            flight, self.flight = self.flight, []
        killers = [batch for _, batch in flight if any("killer" in job.seats for job in batch)]
        for _ in killers:
            self.alone.append(len(flight) == 1)
        for future, batch in flight:
            if killers:
                future.set_exception(BrokenProcessPool("a worker died"))
            else:
                future.set_result(
                    [{"lineup": list(job.lineup), "unit": job.unit, "seating": job.seating} for job in batch]
                )

    def cancel(self, future) -> bool:
        return future.cancel()

    def restart(self) -> None:
        """A new pool: the tasks still in the broken one fail with it, as a real pool's do."""
        with self.lock:
            flight, self.flight = self.flight, []
        for future, _ in flight:
            future.set_exception(BrokenProcessPool("the pool was broken"))

    def shutdown(self) -> None:
        pass


def job(a: str, b: str, unit: int, seating: int) -> Job:
    seats = (a, b) if seating == 0 else (b, a)
    return Job((a, b), unit, seating, seats, seed=unit, bot_seeds=(0, 0))


@pytest.mark.parametrize("in_flight", [1, 2, 4, 8])
@pytest.mark.parametrize("per_task", [1, 3])
def test_a_dying_worker_loses_no_game_and_charges_only_the_game_that_kills_it_alone(in_flight, per_task):
    lineups = [("killer", "random"), ("killer", "boss"), ("random", "boss"), ("boss", "greedy")]
    jobs = [job(a, b, unit, seating) for a, b in lineups for unit in range(2) for seating in range(2)]
    pool = DyingPool(in_flight)
    records: list[dict] = []
    run.run_jobs(jobs, None, {}, pool, on_record=records.append, games_per_task=per_task, tasks_in_flight=in_flight)
    keys = [(tuple(r["lineup"]), r["unit"], r["seating"]) for r in records]
    assert sorted(keys) == sorted(j.key for j in jobs)  # each game once: none lost, none twice
    for record in records:
        assert bool(record.get("failure")) == ("killer" in record["lineup"]), record
        if record.get("failure"):
            assert record["kind"] == run.MACHINE
    assert pool.alone and all(pool.alone[-8:])  # the last word on each killer game: played alone
