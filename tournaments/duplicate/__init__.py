"""Duplicate events, in one place: the pure engine (`engine/`: boards, movements, the score of a
board and the comparison; plain Python), the models (`models.py`, in the `tournaments` app), the
stored event read as the engine's (`plan.py`), the services, the selectors, the pages with
their forms (`views.py`), their templates (`templates/`) and filters (`templatetags.py`). The
API's views are in api/duplicate.py."""
