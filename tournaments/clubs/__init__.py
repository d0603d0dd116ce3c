"""Clubs: the tenants of an installation (docs/clubs.md).

An installation serves one club or many. Each club has its own address (`/c/<club>/`, the
home club also at the site's root), directors, members, tournaments, seasons and publishing
keys. An installation with one club looks and works as if there were no clubs at all.
"""
