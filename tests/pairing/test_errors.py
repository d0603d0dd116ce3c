"""Bad input to any engine raises PairingError with a stable code, never anything else."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests import sizes
from tournaments.pairing import (
    ERROR_CODES,
    Contender,
    PairingError,
    progressive,
    round_robin,
    swiss,
    tables,
)

ENGINES = {
    "swiss": lambda cs, seed=1: swiss(cs, seed=seed),
    "tables3": lambda cs, seed=1: tables(cs, size=3, seed=seed),
    "tables4": lambda cs, seed=1: tables(cs, size=4, seed=seed),
    "progressive": lambda cs, seed=1: progressive(cs, seed=seed),
}


def field(n: int) -> list[Contender]:
    return [Contender(id=i, points=0, rank=i) for i in range(1, n + 1)]


def code_of(call) -> str:
    with pytest.raises(PairingError) as caught:
        call()
    assert caught.value.code in ERROR_CODES
    return caught.value.code


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("contenders", "code"),
    [
        (field(5) + [Contender(id=3, points=0, rank=9)], "duplicate-id"),
        (field(5) + [Contender(id=9, points=0, rank=3)], "duplicate-rank"),
        (field(5) + [Contender(id="x", points=0, rank=9)], "bad-id"),
        (field(5) + [Contender(id=True, points=0, rank=9)], "bad-id"),
        (field(5) + [Contender(id=9, points=1.5, rank=9)], "bad-points"),
        (field(5) + [Contender(id=9, points="2", rank=9)], "bad-points"),
        (field(5) + [Contender(id=9, points=0, rank=None)], "bad-rank"),
        (field(5) + [Contender(id=9, points=0, rank=9, byes=-1)], "bad-history"),
        (field(5) + [Contender(id=9, points=0, rank=9, sat_out=1.0)], "bad-history"),
        (field(5) + [Contender(id=9, points=0, rank=9, first=None)], "bad-history"),
        (field(5) + [Contender(id=9, points=0, rank=9, opponents="12")], "bad-history"),
        (field(5) + [Contender(id=9, points=0, rank=9, opponents=[[1]])], "bad-history"),
        (field(5) + [Contender(id=9, points=0, rank=9, partners={1.5})], "bad-history"),
        (field(5) + [(9, 0, 9)], "bad-contenders"),
        ("abc", "bad-contenders"),
        (None, "bad-contenders"),
        ([], "too-few-entrants"),
    ],
)
def test_bad_contenders_raise_a_stable_code(engine, contenders, code):
    assert code_of(lambda: ENGINES[engine](contenders)) == code


@pytest.mark.parametrize("engine", ENGINES)
def test_a_seed_that_is_not_an_int_is_refused(engine):
    assert code_of(lambda: ENGINES[engine](field(8), seed="7")) == "bad-seed"
    assert code_of(lambda: ENGINES[engine](field(8), seed=None)) == "bad-seed"


@pytest.mark.parametrize(
    ("n", "call"), [(1, "swiss"), (2, "tables3"), (3, "tables4"), (3, "progressive")]
)
def test_fewer_than_one_table_is_too_few(n, call):
    assert code_of(lambda: ENGINES[call](field(n))) == "too-few-entrants"


@pytest.mark.parametrize("size", [2, 5, 0, "4", 4.0, None, True])
def test_table_size_must_be_three_or_four(size):
    assert code_of(lambda: tables(field(8), size=size, seed=1)) == "bad-size"


def test_exactly_one_table_is_enough():
    assert swiss(field(2), seed=1).tables == ((1, 2),)
    assert tables(field(3), size=3, seed=1).tables == ((1, 2, 3),)
    assert progressive(field(4), seed=1).tables == ((1, 2, 4, 3),)


def test_fraction_and_int_points_mix():
    cs = [Contender(id=1, points=Fraction(3, 2), rank=1), Contender(id=2, points=1, rank=2)]
    assert swiss(cs, seed=1).tables == ((1, 2),)


def test_own_id_in_history_is_ignored():
    cs = [Contender(id=i, points=0, rank=i, opponents=frozenset({i})) for i in range(1, 5)]
    assert swiss(cs, seed=1).repeats == 0
    assert tables(cs, size=4, seed=1).repeats == 0


values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(allow_nan=True),
    st.text(max_size=2),
    st.fractions(),
    st.lists(st.integers(), max_size=2),
    st.frozensets(st.integers(), max_size=3),
)


@settings(max_examples=sizes.examples(100), deadline=None)
@given(
    st.lists(
        st.builds(
            Contender,
            id=values,
            points=values,
            rank=values,
            opponents=values,
            byes=values,
            first=values,
            partners=values,
            sat_out=values,
        ),
        max_size=6,
    ),
    st.sampled_from(list(ENGINES)),
)
def test_garbage_never_raises_anything_but_pairing_error(contenders, engine):
    try:
        ENGINES[engine](contenders)
    except PairingError as error:
        assert error.code in ERROR_CODES


@settings(max_examples=sizes.examples(100), deadline=None)
@given(st.one_of(st.lists(values, max_size=5), values), values, st.booleans())
def test_round_robin_garbage_never_raises_anything_but_pairing_error(ids, number, double):
    try:
        round_robin(ids, number, double=double)
    except PairingError as error:
        assert error.code in ERROR_CODES
