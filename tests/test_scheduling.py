"""How `make test` shares the tests between its workers (tests/scheduling.py)."""

from tests.scheduling import next_unit

COLLECTION = [f"tests/a.py::test_{n}" for n in range(6)] + [
    f"tests/b.py::test_{n}" for n in range(30)
]


def test_a_worker_is_sent_the_rest_of_the_first_pending_module():
    assert next_unit(list(range(36)), COLLECTION, 2) == list(range(6))


def test_a_unit_is_at_most_a_fourth_of_what_is_left_for_two_workers():
    assert next_unit(list(range(6, 36)), COLLECTION, 2) == list(range(6, 13))


def test_near_the_end_the_units_are_single_tests():
    assert next_unit([33, 34, 35], COLLECTION, 2) == [33]
    assert next_unit([], COLLECTION, 2) == []


def test_from_the_back_a_worker_is_sent_the_end_of_the_last_module_in_order():
    assert next_unit(list(range(36)), COLLECTION, 2, from_back=True) == list(range(27, 36))


def test_from_the_back_a_unit_stops_at_the_module_before():
    assert next_unit(list(range(8)), COLLECTION, 1, from_back=True) == [6, 7]
