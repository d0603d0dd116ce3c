"""Season championships, in one place: the pure engine (`engine.py`: a series of evenings' table
by its rule; plain Python), the services (the series, its members, its snapshots), the selectors
and the pages (`views.py`). The models are in tournaments/models.py, the API's views in
api/seasons.py, the downloads in tournaments/exports/season.py, the templates in
templates/tournaments/ (season*.html, director/season.html)."""
