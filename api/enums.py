"""Choice sets named for the OpenAPI document (SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"])."""

from tournaments.models import GAMES, Entry, HandSubmission, Match, Round, Tournament

GAME = GAMES
TOURNAMENT_STATE = Tournament.State
ROUND_STATE = Round.State
MATCH_STATE = Match.State
ENTRY_STATUS = Entry.Status
HAND_STATUS = HandSubmission.Status
LATE_ENTRY = Tournament.LateEntry
KNOCKOUT_LENGTH = Tournament.KnockoutLength
#: A partnership's side (duplicate pairs sit NS or EW).
PAIR_SIDE = ["NS", "EW"]
#: The sides of a table: a partnership's (NS, EW) or, at individual tables, a seat's.
TABLE_SIDE = ["NS", "EW", "N", "E", "S", "W"]
