"""The web pages shared by every format, one module per audience; each module lists its own
`urlpatterns` (tournaments/urls.py gathers them with the feature packages' pages):

- `public`: club home, tournaments, pairings, standings, matches, players, leaderboards, projector
- `scoring`: the table scoring page (phone-first; a table token from the card's QR code)
- `director`: the director's dashboard (setup, entries, rounds, result queue, corrections), with
  its forms in `director_forms`
- `exports`: downloads (standings, results, hand records, the tournament archive)
- `imports`: entries (with a preview) and hand records in bulk (a background job)
- `access`: the one director guard (`director_page`) and the public pages' question for drafts
  (`viewer_directs`); `outcomes`: a director's POST shown as a message or against its form

A feature's pages live in its package: `tournaments.duplicate.views` (duplicate events),
`tournaments.knockout.views` (the bracket and the cut), `tournaments.seasons.views`,
`tournaments.room.views`, `tournaments.printing.views` (table cards and score sheets) and
`tournaments.checker.views` (the hand-record checker).
"""
