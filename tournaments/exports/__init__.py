"""Downloads and the tournament archive (docs/exports.md).

- `tabular`: standings and results as CSV (UTF-8 with a BOM) and XLSX, formula-safe.
- `pdf`: standings and results printed on A4 by WeasyPrint from a Django template.
- `records`: each match as a `match/1` record and every confirmed hand as `hand/1` JSON Lines.
- `archive`: the whole tournament as one JSON document (`tricktable-archive/1`), and its
  restore into a database that does not hold the tournament yet.

Public downloads show what the public pages show: published rounds, confirmed hands, the latest
standings snapshot. Only the archive carries the audit trail, and only directors may fetch it.
"""
