"""Results online the same night (issue 32): the evening laptop publishes each event to the
club's TrickTable site, which shows it as the same event. See docs/publishing.md.

models (re-exported by tournaments.models) · payload (what is sent) · client (the PUT) ·
services (the room's and the site's workflows) · sender (where attempts run) · tasks (Celery)
· hooks (round closed, event finished) · views, forms, words (the pages), their templates
(`templates/`) and filters (`templatetags.py`).
"""
