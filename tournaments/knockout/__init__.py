"""Knockout events, in one place: the pure engine (`engine.py`: the seeded bracket; plain
Python), the services (the cut, the bracket's rounds), the selectors and the pages (`views.py`).
The models are in tournaments/models.py, the API's views in api/views.py, the templates in
templates/tournaments/knockout/ and their filters in tournaments/templatetags/knockout.py."""
