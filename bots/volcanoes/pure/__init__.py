"""The pure-Python engine: rules and searches on the standard library alone, which `arena bundle`
submits to CodinGame (no numba there)."""

from __future__ import annotations

from bots.volcanoes.bot import Budget

# 75 ms of a 100 ms turn, 150 of the first 1000 (which pays for start-up): docs/experiments/budgets.md
BUDGET = Budget(share=0.75, first_share=0.15, reserve_s=0.0)
