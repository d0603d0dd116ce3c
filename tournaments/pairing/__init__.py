"""The pairing engines: plain Python (no Django), plain data in, a `Draw` out.

    draw = swiss(contenders, seed=7)                   # two-sided Swiss round
    draw = round_robin(ids, round_number, double=False)
    rounds = round_robin_rounds(len(ids), double=False)
    draw = tables(contenders, size=4, seed=7)          # individual tables of 3 or 4
    draw = progressive(contenders, seed=7)             # partnership "whist drive" tables

How each engine works, its guarantees, the weights and measured figures: docs/pairing.md.
"""

from .progressive import progressive
from .round_robin import round_robin, round_robin_rounds
from .swiss import swiss
from .tables import tables
from .types import ERROR_CODES, Contender, Draw, PairingError

__all__ = [
    "ERROR_CODES",
    "Contender",
    "Draw",
    "PairingError",
    "progressive",
    "round_robin",
    "round_robin_rounds",
    "swiss",
    "tables",
]
