"""TrickTable rules engine.

The core of this package is plain Python with no Django import: it reads `hand/1` and `match/1`
records (see README, "Rules engine"), proves them legal under a rule set and scores them.
The Django-facing parts (the app config and the `check_hands` command) sit at its edge.
"""

from games.records import check_hand, check_match, check_record

__all__ = ["check_hand", "check_match", "check_record"]
