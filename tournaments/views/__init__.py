"""The web pages, one module per audience; each module lists its own `urlpatterns`:

- `public`: club home, tournaments, pairings, standings, matches, players, leaderboards, projector
- `scoring`: the table scoring page (phone-first; a table token from the card's QR code)
- `director`: the director's dashboard (setup, entries, rounds, result queue, corrections)
- `exports`: downloads (standings, results, hand records, the tournament archive)
- `printing`: table cards and score sheets with QR codes
- `imports`: entries (with a preview) and hand records in bulk (a background job)
- `checker`: the hand-record checker
- `knockout`: the bracket (public, live, projector) and the director's cut list and settings
- `duplicate`: duplicate events (director, printing, the table's phone, results, exports)
"""
