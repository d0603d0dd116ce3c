"""What the pages and the API share about a request and its answer: who the client is
(`clients`), its per-client counters (`throttles`), the addresses phones open (`links`) and the
one JSON error shape (`error_shape`)."""
