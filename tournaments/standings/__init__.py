"""The standings engine: plain Python (no Django), exact arithmetic (int/Fraction, never floats).

    rows = compute(entrants, results, tiebreaks=DEFAULT_TIEBREAKS)

Every metric, the default chains and worked examples: docs/standings.md.
"""

from .aggregates import Aggregates
from .engine import compute, validate_tiebreaks
from .incremental import Standings
from .metrics import (
    DEFAULT_CHAINS,
    DEFAULT_TIEBREAKS,
    METRICS,
    Metric,
    register_metric,
    unregister_metric,
)
from .types import OUTCOMES, Column, Entrant, Result, Row, StandingsError, Values

__all__ = [
    "DEFAULT_CHAINS",
    "DEFAULT_TIEBREAKS",
    "METRICS",
    "OUTCOMES",
    "Aggregates",
    "Column",
    "Entrant",
    "Metric",
    "Result",
    "Row",
    "Standings",
    "StandingsError",
    "Values",
    "compute",
    "register_metric",
    "unregister_metric",
    "validate_tiebreaks",
]
