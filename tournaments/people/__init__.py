"""One person across clubs (docs/clubs.md, "One person, many clubs").

A person who plays in several clubs of the installation is recognised as one when a director
links two member records after the person confirmed it: the person brings the claim code
printed on their PIN slip (or shown once on the members page) in one club to a director of the
other, who types it on their own member's page. Never by name: names link nothing.

`engine` (the claim code's alphabet, plain Python), `models` (`ClaimCode`, `ClaimFailure`),
`services` (issuing codes, linking and unlinking records), `selectors` (the person's page),
`views` (the member's page in the club's members pages, the person's page at the root).
"""
