"""The workflows that write: keyword-only, typed, one transaction each.

Every function takes the acting `Actor` and raises a `ServiceError` (a stable `code`, a message,
details) for input it refuses, having changed nothing.
"""

from tournaments.knockout.services import confirm_cut, cut_list, set_knockout

from .actors import SYSTEM, Actor, audit, is_director, require_director
from .entries import (
    PlayerSpec,
    allow_together,
    check_in,
    check_in_entries,
    find_or_create_player,
    fix_table,
    keep_apart,
    register_entry,
    set_affiliation,
    set_seed,
    undo_check_in,
    withdraw,
)
from .errors import Conflict, Invalid, NotAllowed, NotFound, ServiceError
from .hands import (
    Submitted,
    confirm_hand,
    correct_hand,
    current_versions,
    finish_match,
    reject_hand,
    submit_hand,
    void_hand,
)
from .imports import EntriesPreview, import_entries, parse_entries
from .rounds import (
    can_generate_round,
    close_round,
    generate_round,
    publish_round,
    swap_entries,
)
from .setup import update_tournament
from .table_access import (
    card_path,
    expire_event_cards,
    issue_round_tokens,
    issue_table_token,
    print_cards,
    revoke_table_token,
    scoring_path,
)
from .tournaments import (
    close_registration,
    create_tournament,
    finish_tournament,
    open_registration,
)

__all__ = [
    "confirm_cut",
    "cut_list",
    "set_knockout",
    "SYSTEM",
    "Actor",
    "Conflict",
    "Invalid",
    "NotAllowed",
    "NotFound",
    "PlayerSpec",
    "ServiceError",
    "Submitted",
    "audit",
    "allow_together",
    "check_in",
    "check_in_entries",
    "close_round",
    "confirm_hand",
    "correct_hand",
    "create_tournament",
    "current_versions",
    "find_or_create_player",
    "finish_match",
    "finish_tournament",
    "fix_table",
    "generate_round",
    "can_generate_round",
    "is_director",
    "card_path",
    "expire_event_cards",
    "issue_round_tokens",
    "issue_table_token",
    "open_registration",
    "close_registration",
    "publish_round",
    "keep_apart",
    "register_entry",
    "set_affiliation",
    "reject_hand",
    "void_hand",
    "print_cards",
    "revoke_table_token",
    "scoring_path",
    "require_director",
    "set_seed",
    "submit_hand",
    "swap_entries",
    "undo_check_in",
    "update_tournament",
    "withdraw",
    "EntriesPreview",
    "import_entries",
    "parse_entries",
]
