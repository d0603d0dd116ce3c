"""Random legal hand records, one module per game, for property tests, benchmarks and demo data.

Each module offers ``random_hand(rng, rules=..., *, dealer=None, before=None) -> dict``: a full
`hand/1` record dealt at random and played at random but legally under the given rules.
"""
