"""TrickTable rules engine.

The core of this package is plain Python with no Django import: it reads `hand/1` and `match/1`
records (see README, "Rules engine"), proves them legal under a rule set and scores them.
The Django-facing parts (the app config and the `check_hands` command) sit at its edge.
"""

from games import accel

#: Which engine this process runs: the compiled one (`make accel`) where it is built for these
#: sources and not turned off, else the pure-Python one (games/accel.py).
ENGINE = accel.activate(__path__)

from games.records import check_hand, check_match, check_record  # noqa: E402

__all__ = ["ENGINE", "check_hand", "check_match", "check_record"]
