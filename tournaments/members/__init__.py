"""Members follow from home: each player's page on the club's site (every event played, the
results, duplicate score cards, the rating and its history), finding oneself by name, and how
the site shows members' names (in full or initials; a name removed on request).

`models` (the club's choice and the names removed), `names` (what a published event's names
become on the site), `services` (changing them), `selectors` and `views` (the pages).
"""
