"""Percentiles and the median-of-runs summary every figure of the report is made of."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    rank = (len(ordered) - 1) * q / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def latency_summary(samples_ms: Sequence[float]) -> dict[str, float]:
    return {"n": len(samples_ms), "p50": round(percentile(samples_ms, 50), 2),
            "p95": round(percentile(samples_ms, 95), 2), "p99": round(percentile(samples_ms, 99), 2)}


def runs_summary(runs: Sequence[float], digits: int = 2) -> dict[str, Any]:
    """The median of the runs and their spread (min, max, and max-min relative to the median)."""
    median = statistics.median(runs) if runs else 0.0
    low, high = (min(runs), max(runs)) if runs else (0.0, 0.0)
    return {"median": round(median, digits), "min": round(low, digits), "max": round(high, digits),
            "spread_pct": round(100 * (high - low) / median, 1) if median else 0.0,
            "runs": [round(r, digits) for r in runs]}


def median_of(runs: Sequence[dict[str, float]], key: str) -> float:
    return round(statistics.median(r[key] for r in runs), 2) if runs else 0.0
