"""Season championships, in one place: the pure engine (`engine.py`: a series of evenings' table
by its rule; plain Python), the models (`models.py`), the services (the series, its members, its
snapshots), the selectors, the pages (`views.py`) and their templates (`templates/`). The API's
views are in api/seasons.py, the downloads in tournaments/exports/season.py."""
