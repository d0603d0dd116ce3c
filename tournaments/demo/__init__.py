"""The demo club and simulated play: `club.py` fills a database with a club's evenings
(`manage.py demo`), `simulate.py` plays matches through the real workflows with simulated legal
hands (the demo, the tests and the benchmarks)."""
