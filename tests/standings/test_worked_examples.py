"""Worked examples, every expected value computed by hand (the same examples, with the
arithmetic written out, are in docs/standings.md)."""

from __future__ import annotations

from fractions import Fraction

from tournaments.standings import DEFAULT_CHAINS, DEFAULT_TIEBREAKS, Entrant, compute

from .events import bye, pairs, table, two_sided

F = Fraction


def table_of(rows):
    return [(r.rank, r.entrant) for r in rows]


# -- a 6-team, 3-round Swiss: Buchholz, Sonneborn-Berger and head-to-head each decide a tie ------

A, B, C, D, E_, F_ = 1, 2, 3, 4, 5, 6
SIX = [Entrant(id=i, order=i) for i in (A, B, C, D, E_, F_)]
SIX_RESULTS = [
    # round 1: A beats B, C beats D, E draws F
    *two_sided(1, 1, A, B, 300, 200),
    *two_sided(1, 2, C, D, 300, 200),
    *two_sided(1, 3, E_, F_, 250, 250),
    # round 2: C beats A, B beats E, F beats D
    *two_sided(2, 4, A, C, 200, 300),
    *two_sided(2, 5, B, E_, 300, 200),
    *two_sided(2, 6, D, F_, 200, 300),
    # round 3: D beats A, F beats B, C draws E
    *two_sided(3, 7, A, D, 200, 300),
    *two_sided(3, 8, B, F_, 200, 300),
    *two_sided(3, 9, C, E_, 250, 250),
]
SWISS_CHAIN = ("match_points", "buchholz", "sonneborn_berger", "head_to_head")


def test_six_team_swiss_values_match_the_hand_computation():
    rows = {r.entrant: r.values for r in compute(SIX, SIX_RESULTS, tiebreaks=SWISS_CHAIN)}
    assert {t: rows[t]["match_points"] for t in rows} == {A: 2, B: 2, C: 5, D: 2, E_: 2, F_: 5}
    assert {t: rows[t]["buchholz"] for t in rows} == {A: 9, B: 9, C: 6, D: 12, E_: 12, F_: 6}
    assert {t: rows[t]["sonneborn_berger"] for t in rows} == {A: 2, B: 2, C: 5, D: 2, E_: 5, F_: 5}
    # A's opponents scored B 2, C 5, D 2: Cut-1 drops a 2, the median keeps only the other 2
    assert rows[A]["buchholz_cut1"] == 7 and rows[A]["median_buchholz"] == 2
    # progressive: C 2, 4, 5 -> 11; F 1, 3, 5 -> 9; A 2, 2, 2 -> 6
    assert (
        rows[C]["progressive_score"],
        rows[F_]["progressive_score"],
        rows[A]["progressive_score"],
    ) == (11, 9, 6)
    assert rows[A]["point_difference"] == -100 and rows[E_]["point_difference"] == -100
    assert rows[C]["average_points"] == F(850, 3)


def test_six_team_swiss_each_tiebreak_decides_its_tie():
    rows = compute(SIX, SIX_RESULTS, tiebreaks=SWISS_CHAIN)
    # C and F: 5 points, Buchholz 6, SB 5, never met -> a shared 1st, listed by registration
    # D, E (Buchholz 12) over A, B (9); E over D on SB (5 > 2); A over B head to head.
    assert table_of(rows) == [(1, C), (1, F_), (3, E_), (4, D), (5, A), (6, B)]
    assert [r.tied for r in rows] == [True, True, False, False, False, False]
    h2h = {r.entrant: r.values["head_to_head"] for r in rows}
    assert (h2h[A], h2h[B], h2h[C], h2h[F_]) == (2, 0, 0, 0)


def test_six_team_swiss_progressive_score_separates_the_leaders():
    rows = compute(SIX, SIX_RESULTS, tiebreaks=("match_points", "progressive_score"))
    assert table_of(rows)[:2] == [(1, C), (2, F_)]


def test_a_tie_at_the_top_is_listed_by_seed_then_registration():
    seeded = [Entrant(id=e.id, order=e.order, seed=1 if e.id == F_ else None) for e in SIX]
    rows = compute(seeded, SIX_RESULTS, tiebreaks=SWISS_CHAIN)
    assert table_of(rows)[:2] == [(1, F_), (1, C)]


# -- ranks, seeds and registration order ----------------------------------------------------------


def test_ranks_are_shared_1_2_2_4_and_ties_ordered_by_seed_then_order():
    people = [
        Entrant(id=10, order=4),
        Entrant(id=11, order=3, seed=2),
        Entrant(id=12, order=2, seed=1),
        Entrant(id=13, order=1),
    ]
    assert [(r.rank, r.entrant, r.tied) for r in compute(people, [], tiebreaks=["wins"])] == [
        (1, 12, True),
        (1, 11, True),
        (1, 13, True),
        (1, 10, True),
    ]
    results = [*two_sided(1, 1, 10, 11, 300, 100), *two_sided(1, 2, 12, 13, 200, 300)]
    # 10 and 13 won, 11 and 12 lost: 1, 1, 3, 3 then point difference splits them
    rows = compute(people, results, tiebreaks=["match_points"])
    assert [(r.rank, r.entrant) for r in rows] == [(1, 13), (1, 10), (3, 12), (3, 11)]
    rows = compute(people, results, tiebreaks=["match_points", "point_difference"])
    assert [(r.rank, r.entrant) for r in rows] == [(1, 10), (2, 13), (3, 12), (4, 11)]
    # 14 registers first (order 0), has a bye worth 0 in round 1, draws 12 in round 2: 14 and
    # 12 share 3rd on 1 point, 12 listed first as the only seeded one
    people.append(Entrant(id=14, order=0))
    results += [*two_sided(2, 3, 14, 12, 250, 250), bye(1, 4, 14, F(0))]
    rows = compute(people, results, tiebreaks=["match_points"])
    assert [(r.rank, r.entrant) for r in rows] == [(1, 13), (1, 10), (3, 12), (3, 14), (5, 11)]


def test_the_default_chain_on_the_six_team_swiss():
    rows = compute(SIX, SIX_RESULTS, tiebreaks=DEFAULT_TIEBREAKS)
    # C and F: 5 points, +200, Buchholz 6, never met, 2 wins each: shared 1st.
    # A, B, D, E: 2 points, -100 each; Buchholz D, E 12 over A, B 9; D and E never met,
    # D has a win and E none; A beat B.
    assert table_of(rows) == [(1, C), (1, F_), (3, D), (4, E_), (5, A), (6, B)]


# -- a table-of-4 event (Solo Whist): places, shared places, fractional points --------------------


def solo_whist_event():
    players = [Entrant(id=i, order=i) for i in range(1, 9)]
    results = [
        # round 1, table 1: P1 1st; P2 and P3 share 2nd ((2 + 1) / 2 each); P4 4th
        *table(1, 1, [(1, 1, 3, 30), (2, 2, F(3, 2), 5), (3, 2, F(3, 2), 5), (4, 4, 0, -40)]),
        *table(1, 2, [(5, 1, 3, 20), (6, 2, 2, 10), (7, 3, 1, -10), (8, 4, 0, -20)]),
        # round 2
        *table(2, 3, [(5, 1, 3, 25), (3, 2, 2, 5), (1, 3, 1, -10), (7, 4, 0, -20)]),
        *table(2, 4, [(2, 1, 3, 15), (4, 2, F(3, 2), 0), (6, 2, F(3, 2), 0), (8, 4, 0, -15)]),
    ]
    return players, results


def test_table_of_four_places_and_shared_places():
    players, results = solo_whist_event()
    rows = compute(players, results, tiebreaks=DEFAULT_CHAINS["tables_places"])
    # P3 and P6: 7/2 points, placings 4, points 10 each; Buchholz 7 against 13/3
    assert table_of(rows) == [(1, 5), (2, 2), (3, 1), (4, 3), (5, 6), (6, 4), (7, 7), (8, 8)]
    v = {r.entrant: r.values for r in rows}
    assert [v[p]["match_points"] for p in range(1, 9)] == [
        4,
        F(9, 2),
        F(7, 2),
        F(3, 2),
        6,
        F(7, 2),
        1,
        0,
    ]
    assert [v[p]["placings"] for p in range(1, 9)] == [4, 3, 4, 6, 2, 4, 7, 8]
    assert v[3]["buchholz"] == 7 and v[6]["buchholz"] == F(13, 3)
    assert v[3]["sonneborn_berger"] == F(35, 12) and v[6]["sonneborn_berger"] == F(7, 12)
    assert v[3]["points_against"] == F(-10, 3) and v[3]["point_difference"] == F(40, 3)
    assert sum(v[p]["match_points"] for p in v) == 24


def test_table_of_four_ranks_by_each_player_s_own_total_by_default():
    """Solo Whist's default: the players' own settlements added up (P5 +45; P1 and P2 +20 each,
    P2's places 2 + 1 before P1's 1 + 3; P3 and P6 +10 each, places 4 each, Buchholz 7
    against 13/3; P7 -30, P8 -35, P4 -40)."""
    players, results = solo_whist_event()
    rows = compute(players, results, tiebreaks=DEFAULT_CHAINS["tables"])
    assert table_of(rows) == [(1, 5), (2, 2), (3, 1), (4, 3), (5, 6), (6, 7), (7, 8), (8, 4)]
    v = {r.entrant: r.values for r in rows}
    assert [v[p]["points_for"] for p in range(1, 9)] == [20, 20, 10, -40, 45, 10, -30, -35]


# -- progressive play (a whist drive): partners change, players ranked individually ---------------


def test_progressive_play_counts_opponents_never_partners():
    players = [Entrant(id=i, order=i) for i in range(1, 9)]
    results = [
        *pairs(1, 1, (1, 2), (3, 4), 120, 80),
        *pairs(1, 2, (5, 6), (7, 8), 100, 100),
        *pairs(2, 3, (1, 3), (5, 7), 90, 110),
        *pairs(2, 4, (2, 4), (6, 8), 130, 70),
    ]
    rows = compute(players, results, tiebreaks=DEFAULT_CHAINS["progressive"])
    # Q2 250 points first. Q1, Q4, Q5, Q7 210 each; Q5, Q7: 3 match points, Buchholz 3
    # each; they met once as opponents (a draw: 1 each)
    # and once as partners (not counted) -> shared 2nd. Q1 over Q4 head to head (Q1 won).
    assert table_of(rows) == [(1, 2), (2, 5), (2, 7), (4, 1), (5, 4), (6, 6), (6, 8), (8, 3)]
    v = {r.entrant: r.values for r in rows}
    assert (v[5]["buchholz"], v[7]["buchholz"], v[1]["buchholz"], v[4]["buchholz"]) == (3, 3, 4, 4)
    assert (v[5]["head_to_head"], v[7]["head_to_head"]) == (1, 1)
    assert (v[1]["head_to_head"], v[4]["head_to_head"]) == (2, 0)


# -- a late entrant and a bye ----------------------------------------------------------------------


def test_late_entrant_missed_rounds_and_a_bye():
    a, b, c, d, late = 1, 2, 3, 4, 5
    people = [Entrant(id=i, order=i) for i in (a, b, c, d)]
    people.append(Entrant(id=late, order=5, missed=(1,), missed_points=F(1)))
    results = [
        *two_sided(1, 1, a, b, 300, 200),
        *two_sided(1, 2, c, d, 250, 150),
        *two_sided(2, 3, a, c, 280, 260),
        *two_sided(2, 4, b, late, 300, 100),
        bye(2, 5, d),
        *two_sided(3, 6, a, d, 300, 200),
        *two_sided(3, 7, late, c, 220, 200),
        bye(3, 8, b),
    ]
    v = {r.entrant: r.values for r in compute(people, results, tiebreaks=DEFAULT_TIEBREAKS)}
    assert [v[x]["match_points"] for x in (a, b, c, d, late)] == [6, 4, 2, 2, 3]
    l_ = v[late]
    assert (l_["played"], l_["won"], l_["lost"], l_["byes"]) == (2, 1, 1, 0)
    # opponents B (4) and C (2), and the missed round: a virtual opponent on L's own 3
    assert (l_["buchholz"], l_["buchholz_cut1"], l_["median_buchholz"]) == (9, 7, 3)
    assert l_["progressive_score"] == 1 + 1 + 3
    assert l_["average_points"] == F(320, 3)  # 0 + 100 + 220 over 3 rounds credited
    # D: lost to C, a bye (virtual opponent on D's own 2), lost to A: no SB, no win
    assert (v[d]["buchholz"], v[d]["sonneborn_berger"]) == (10, 0)
    assert (v[d]["won"], v[d]["wins"], v[d]["byes"], v[d]["played"]) == (0, 0, 1, 2)
    assert v[b]["buchholz"] == 6 + 3 + 4
    assert sum(v[x]["match_points"] for x in v) == 16 + 1


# -- a withdrawal ----------------------------------------------------------------------------------


def test_withdrawn_entrant_stays_ranked_and_counts_for_its_opponents():
    people = [
        Entrant(id=1, order=1),
        Entrant(id=2, order=2, withdrawn=True),
        Entrant(id=3, order=3),
        Entrant(id=4, order=4),
    ]
    results = [
        *two_sided(1, 1, 2, 1, 300, 100),
        *two_sided(1, 2, 3, 4, 300, 100),
        # 2 withdraws after round 1; round 2: 1 and 3 play, 4 has the bye
        *two_sided(2, 3, 1, 3, 200, 100),
        bye(2, 4, 4),
    ]
    rows = compute(people, results, tiebreaks=["match_points", "buchholz"])
    v = {r.entrant: r.values for r in rows}
    # 1: 2 points, opponents 2 (2) and 3 (2) -> 4; 2 (withdrawn): 2 points, opponent 1 (2) -> 2;
    # 3: 2, opponents 4 (2) and 1 (2) -> 4; 4: 2, opponents 3 (2) and a virtual 2 -> 4
    assert table_of(rows) == [(1, 1), (1, 3), (1, 4), (4, 2)]
    assert v[2]["played"] == 1 and v[1]["buchholz"] == 4
