"""Knockout events, in one place: the pure engine (`engine.py`: the seeded bracket; plain
Python), the models (`models.py`: the knockout's columns of a tournament and of a match), the
services (the cut, the bracket's rounds), the selectors, the pages (`views.py`), their templates
(`templates/`) and filters (`templatetags.py`). The API's views are in api/views.py, the bracket's
PDF in tournaments/exports/bracket.py."""
