"""Live updates, one module per job (docs/live.md):

- `tournaments.live.events`: announcing (`publish`, local `listen`ers) and the bounded
  per-tournament event log whose ids are the server-sent-events ids (`history`, `tail`,
  `ahistory`, `atail`);
- `tournaments.live.hub`: fan-out of announcements to the async listeners of one event loop
  (`subscribe` -> `Subscription`);
- `tournaments.live.standings_cache`: the standings response cache's keys (the one place they
  are spelled) and its invalidation (`invalidate`).

The Redis client is `tournaments.redis_client`. What connects these modules to the workflows
(`services.notify` listeners, `Tournament` save signals) is done in
`TournamentsConfig.ready()`, not at import.
"""
