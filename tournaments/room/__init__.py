"""The room, in one place: the round clock and the tables' calls to the director (`models.py`,
`services.py`), what the director's room panel and the tables' phones read (`selectors.py`), the
director's room pages (`views.py`), their templates (`templates/`) and filters
(`templatetags.py`). The API's views are in api/room.py."""
