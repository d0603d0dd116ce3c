"""What the pages and the API share about a request and its answer: who the client is
(`clients`), its per-client counters (`throttles`), the addresses phones open (`links`), the
one JSON error shape (`error_shape`) and what a cache may keep of a public page (`caching`)."""
