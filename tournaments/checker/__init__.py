"""The hand checker (`/check/`), in one place: reading and checking pasted or uploaded records
(`records.py`), its form (`forms.py`) and its page (`views.py`; its template in `templates/`)."""
