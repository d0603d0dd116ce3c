"""JSON Schemas (draft 2020-12) of the hand-record format, shipped inside the package.

- ``hand-records``: a ``hand/1`` record, a ``match/1`` record, or an array of those, for all
  four games, accepting the forgiving input (see ``shared/spec/hand-records.md``).
- ``results``: the result objects ``games.records.check_record`` returns and
  ``manage.py check_hands`` prints.

``load_schema(name)`` returns a schema as a fresh dict (safe to modify, e.g. to embed it in the
OpenAPI document). The schemas only describe the shape of records; legality and scores are the
rules engine's. Plain Python: no Django import, and no dependency on a validator library.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from importlib import resources
from typing import Any

SCHEMAS = ("hand-records", "results")

__all__ = ["SCHEMAS", "load_schema"]


def load_schema(name: str) -> dict[str, Any]:
    """The schema `name` ("hand-records" or "results"; a ".schema.json" suffix is allowed)."""
    return copy.deepcopy(_load(name.removesuffix(".json").removesuffix(".schema")))


@cache
def _load(name: str) -> dict[str, Any]:
    if name not in SCHEMAS:
        raise KeyError(f"no schema {name!r} (schemas: {', '.join(SCHEMAS)})")
    text = resources.files(__name__).joinpath(f"{name}.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
