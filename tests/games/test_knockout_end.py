"""A knockout match never ends level (tournaments.gameplay.knockout_ended): to a target the rules'
own tie rule plays on; after a fixed number of hands a tie adds the tie-break hands."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournaments.gameplay import knockout_ended


def ended(hands, *, tied=False, rules=False, length="hands", count=4, tiebreak=1):
    return knockout_ended(
        length=length,
        count=count,
        tiebreak_hands=tiebreak,
        hands=hands,
        rules_ended=rules,
        tied=tied,
    )


def test_a_fixed_length_knockout_match_with_a_leader_ends_after_its_hands():
    assert [ended(n) for n in (1, 3, 4)] == [None, None, "hands"]


def test_a_tie_after_the_hands_adds_one_hand_at_a_time_until_someone_leads():
    assert ended(4, tied=True) is None
    assert ended(5, tied=True) is None
    assert ended(6) == "tie-break"


def test_a_tie_break_of_two_hands_is_played_whole_even_when_the_first_breaks_the_tie():
    assert ended(5, tiebreak=2) is None
    assert ended(6, tiebreak=2) == "tie-break"
    assert ended(6, tiebreak=2, tied=True) is None
    assert ended(8, tiebreak=2) == "tie-break"


def test_to_a_target_only_the_rules_end_it_and_never_level():
    assert ended(9, length="target", count=None) is None
    assert ended(9, length="target", count=None, rules=True) == "rules"
    assert ended(9, length="target", count=None, rules=True, tied=True) is None
    assert ended(2, rules=True) == "rules", "a rule ending the match early (a moon) still ends it"


@given(
    st.integers(1, 12),
    st.integers(0, 40),
    st.integers(1, 4),
    st.sampled_from(["target", "hands", "best-of"]),
    st.booleans(),
)
def test_a_knockout_match_never_ends_tied(count, hands, tiebreak, length, rules):
    assert (
        ended(hands, tied=True, rules=rules, length=length, count=count, tiebreak=tiebreak) is None
    )
