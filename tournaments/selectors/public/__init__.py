"""Read-side queries for the public pages, one module per page: the club home and leaderboards
(`home`), a tournament (`tournament`), a round (`round`), the standings (`standings`), a match
hand by hand (`match`) and a player (`player`), shaped for the templates.

Plain reads, no writes. Scores are never computed here: they come from the rules engine's
results stored with each hand (who won each trick included), the match's settled result, or the
standings snapshot; numbers are written by `tournaments.words.formatting.number`, and what a
game shows of a hand by its presentation (`tournaments.presentation`).
"""
