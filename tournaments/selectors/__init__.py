"""Read-side queries for the pages (plain reads, no writes): one module per page area."""
