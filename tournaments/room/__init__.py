"""The room, in one place: the round clock and the tables' calls to the director (`services.py`),
what the director's room panel and the tables' phones read (`selectors.py`) and the director's
room pages (`views.py`). The models are in tournaments/models.py, the API's views in
api/room.py, the templates in templates/tournaments/room/ and their filters in
tournaments/templatetags/room.py."""
