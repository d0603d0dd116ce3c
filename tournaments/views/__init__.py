"""The web pages, one module per audience; each module lists its own `urlpatterns`:

- `public`: club home, tournaments, pairings, standings, matches, players, leaderboards, projector
- `scoring`: the table scoring page (phone-first; a table token from the card's QR code)
- `director`: the director's dashboard (setup, entries, rounds, result queue, corrections)
- `exports`: downloads, printing (table cards, score sheets) and imports
- `checker`: the hand-record checker
"""
