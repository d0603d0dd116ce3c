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
