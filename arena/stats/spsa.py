"""SPSA (simultaneous perturbation stochastic approximation) over game results, as chess engine
testers tune their engines (OpenBench, fishtest): the arithmetic alone, without games or files.

Iteration k (1..N) moves every tuned parameter at once: each gets a random sign delta (+1 or -1, drawn
from the run seed and k), the side "plus" plays theta + c_k * delta and "minus" theta - c_k * delta,
and from their games' net result (plus's wins minus its losses) theta moves by

    r_k * c_k * net * delta,   with   c_k = c_end * (N / k) ** gamma,
                                      r_k = a / (A + k) ** alpha / c_k ** 2,
                                      a = r_end * c_end ** 2 * (A + N) ** alpha,   A = N / 10,

Spall's schedules (alpha 0.602, gamma 0.101) in OpenBench's form: the perturbation c_k shrinks to c_end
at the last iteration, the step r_k * c_k * net is the usual gradient estimate net / (2 c_k) times a
gain that decays like (A + k) ** -alpha. Everything is scaled to each parameter's tuning range: c_end
is a fraction of the range (the same for every parameter), so r_end is one number without units.

The default r_end is set by the noise: if plus and minus were equally strong, every game a coin toss
(+1 or -1), theta would wander WANDER of each range (one standard deviation) over the whole run. A real
difference adds a drift on top, which grows with the square root of the games played: more iterations
resolve smaller differences. c_end is a tenth of the range rather than OpenBench's twentieth because
our runs are short (hundreds of iterations, not tens of thousands): a larger perturbation makes a
larger difference between the sides, and SPSA's signal grows with it (simulated on the synthetic problem
of tests/arena/test_tune.py with a peak 400 Elo deep, 200 runs of 100 iterations of 4 pairs: the median
distance to the optimum fell from 0.28 to 0.15 of the range).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

ALPHA = 0.602  # the decay of the gain (Spall's recommended values)
GAMMA = 0.101  # the decay of the perturbation
A_RATIO = 0.1  # A, the gain's stability constant, as a fraction of the iterations
C_END = 0.1  # the last perturbation, as a fraction of each parameter's range
WANDER = 0.1  # how far (a fraction of each range, one sd) theta wanders on coin tosses: the default r_end
MIN_INT_C = 0.5  # an integer parameter is perturbed by at least half a unit (rounded at random)
SIGNIFICANT = 3  # a tuned value's digits kept, at least (`rounded`)


@dataclass(frozen=True)
class Tuned:
    """A parameter being tuned: its range for this run (inside the bot's declared one) and its start."""

    name: str
    low: float
    high: float
    start: float
    integer: bool = False

    @property
    def span(self) -> float:
        return self.high - self.low

    def clip(self, value: float) -> float:
        return min(max(value, self.low), self.high)


@dataclass(frozen=True)
class Plan:
    """What iteration k plays: the perturbation's signs and size, and the two sides' values."""

    iteration: int
    delta: dict[str, int]
    c: dict[str, float]
    plus: dict[str, float]
    minus: dict[str, float]


@dataclass(frozen=True)
class Spsa:
    params: tuple[Tuned, ...]
    iterations: int
    games: int  # the games whose results make an iteration's net
    c_end: float = C_END
    r_end: float | None = None  # None: set by WANDER
    alpha: float = ALPHA
    gamma: float = GAMMA
    a_ratio: float = A_RATIO

    def __post_init__(self):
        if self.r_end is None:
            object.__setattr__(self, "r_end", self.default_r_end())

    @property
    def big_a(self) -> float:
        return self.a_ratio * self.iterations

    def default_r_end(self) -> float:
        """The r_end with which coin tosses move theta WANDER of each range (one sd) over the run.
        A net win moves a parameter r_end * c_end * span * f_k (see `gain`), and a net of `games`
        coin tosses has variance `games`."""
        n, big_a = self.iterations, self.big_a
        f2 = sum((((big_a + n) / (big_a + k)) ** self.alpha * (k / n) ** self.gamma) ** 2 for k in range(1, n + 1))
        return WANDER / (self.c_end * math.sqrt(self.games * f2))

    def c(self, k: int) -> dict[str, float]:
        """The perturbation of iteration k (1..N), in each parameter's units."""
        shrink = (self.iterations / k) ** self.gamma
        return {p.name: max(self.c_end * p.span * shrink, MIN_INT_C if p.integer else 0.0) for p in self.params}

    def gain(self, k: int) -> dict[str, float]:
        """r_k * c_k: how far a net win of iteration k moves each parameter."""
        c = self.c(k)
        out = {}
        for p in self.params:
            a = self.r_end * (self.c_end * p.span) ** 2 * (self.big_a + self.iterations) ** self.alpha
            out[p.name] = a / (self.big_a + k) ** self.alpha / c[p.name]
        return out

    def plan(self, theta: dict[str, float], k: int, seed: int) -> Plan:
        """Iteration k's sides around `theta`; `seed` (from the run seed and k) draws the signs, and
        the rounding of integer parameters (up with the probability of the fraction, as OpenBench)."""
        rng = random.Random(seed)
        c = self.c(k)
        delta, plus, minus = {}, {}, {}
        for p in self.params:
            delta[p.name] = rng.choice((-1, 1))
            high, low = theta[p.name] + c[p.name] * delta[p.name], theta[p.name] - c[p.name] * delta[p.name]
            plus[p.name], minus[p.name] = p.clip(high), p.clip(low)
            if p.integer:  # theta stays a real number; the sides play integers
                u = rng.random()
                plus[p.name], minus[p.name] = (int(math.floor(v + u)) for v in (plus[p.name], minus[p.name]))
        return Plan(k, delta, c, plus, minus)

    def update(self, theta: dict[str, float], plan: Plan, net: int) -> dict[str, float]:
        """theta after iteration `plan.iteration`, whose plus side won `net` games more than it lost."""
        gain = self.gain(plan.iteration)
        return {p.name: p.clip(theta[p.name] + gain[p.name] * net * plan.delta[p.name]) for p in self.params}

    def start(self) -> dict[str, float]:
        return {p.name: p.start for p in self.params}


def rounded(value: float, param: Tuned) -> float | int:
    """`value` to a thousandth of the parameter's range (at least to units for an integer), for a spec
    that reads well: a tuned value is not known more closely than that. Never to fewer than
    SIGNIFICANT digits of its own, though: on a range as wide as a bot's declared one (0 to 1e7) a
    thousandth of it would round 304 to 0, and the tuned spec would name another bot."""
    if param.integer:
        return int(round(value))
    step = _power_of_ten(param.span / 1000.0) if param.span > 0 else 1.0
    if value != 0:
        step = min(step, _power_of_ten(abs(value)) / 10.0 ** (SIGNIFICANT - 1))
    digits = max(0, -math.floor(math.log10(step)))
    return param.clip(round(round(value / step) * step, digits))


def _power_of_ten(x: float) -> float:
    """The largest power of ten not above `x` (> 0)."""
    return 10.0 ** math.floor(math.log10(x))
