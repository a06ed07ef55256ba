"""java.util.Random, bit for bit: CodinGame's referees draw from it, so a seed reproduces their
choices (Volcanoes' RANDOM move, for one)."""

from __future__ import annotations

_MULTIPLIER = 0x5DEECE66D
_ADDEND = 0xB
_MASK = (1 << 48) - 1


def _to_int32(x: int) -> int:
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >= 1 << 31 else x


class JavaRandom:
    """The 48-bit linear congruential generator of java.util.Random."""

    def __init__(self, seed: int):
        self._seed = (seed ^ _MULTIPLIER) & _MASK

    def _next(self, bits: int) -> int:
        self._seed = (self._seed * _MULTIPLIER + _ADDEND) & _MASK
        return _to_int32(self._seed >> (48 - bits))

    def next_int(self, bound: int | None = None) -> int:
        """nextInt() without a bound, or nextInt(bound): uniform in [0, bound)."""
        if bound is None:
            return self._next(32)
        if bound <= 0:
            raise ValueError("bound must be positive")
        if bound & (bound - 1) == 0:  # a power of two: the high bits
            return (bound * self._next(31)) >> 31
        while True:
            bits = self._next(31)
            value = bits % bound
            if _to_int32(bits - value + (bound - 1)) >= 0:  # Java rejects draws that overflow
                return value
