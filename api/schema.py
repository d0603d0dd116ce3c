"""OpenAPI details: the error shape on every 4xx response, the authentication schemes, and the
`hand/1` JSON Schema (from `games.schema`) as components the hand endpoints refer to."""

from __future__ import annotations

import json
from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import is_serializer
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle

from games.schema import load_schema

from .codes import ERROR_CODES
from .permissions import ReadOnlyOrSignedIn, ScorerOrSignedIn
from .serializers import ErrorSerializer

ERROR_DESCRIPTIONS = {
    "400": "Invalid input (`invalid` with the field errors in `details`, `parse-error`, or a "
    "service's code)",
    "401": "Not authenticated, or a bad, expired (`token-expired`) or revoked "
    "(`token-revoked`) token",
    "403": "Not allowed (`not-director`, `not-club-director`, `wrong-table`, `own-side`, "
    "`scorer-not-allowed`, ...)",
    "404": "Not found",
    "405": "Method not allowed",
    "406": "Not acceptable",
    "409": "Conflict with the current state (a race, a reused idempotency key, a wrong state)",
    "413": "The request body is too large (`too-large`)",
    "415": "Unsupported media type",
    "422": "Well-formed but refused by the domain (e.g. `invalid-hand`, with the rules engine's "
    "errors in `details`)",
    "429": "Throttled (`throttled`; `details.wait` seconds), or too many wrong passwords "
    "(`locked-out`, `POST /auth/tokens`)",
}
#: Writes that change nothing a service guards by state: they answer no 409 or 422.
PLAIN_WRITES = frozenset({
    "auth_tokens_create", "auth_tokens_destroy", "tables_tokens_create", "tables_tokens_destroy",
    "hands_check",
})  # fmt: skip

#: Reads that only some may make, checked by the view (a director, the table's scorer): 403.
GUARDED_READS = frozenset({
    "tournaments_audit_list", "tournaments_pins_list", "tournaments_queue_list",
    "tournaments_kept_apart_list", "tournaments_archive", "tables_call_retrieve",
})  # fmt: skip

#: Permissions that let anyone read.
OPEN_READS = (AllowAny, ReadOnlyOrSignedIn, ScorerOrSignedIn)

#: The last path segments of POST endpoints that act on what the path names (publish a round,
#: confirm a hand) rather than create something in a collection: their operation ids are named
#: after the action (`rounds_publish`), not `<path>_create`.
ACTIONS = frozenset({
    "acknowledge", "affiliation", "call", "check", "check-in", "close", "close-registration",
    "confirm", "correct",
    "cut", "extend", "finish", "fix-table", "generate", "import", "open-registration", "pause",
    "publish", "reject", "release", "resume", "seed", "start", "swap", "undo-check-in", "void",
    "withdraw",
})  # fmt: skip


class ApiAutoSchema(AutoSchema):
    """Every operation documents the error statuses it can answer, with the `Error` shape, and
    an action's operation id is named after the action."""

    def get_operation_id(self) -> str:
        operation_id = super().get_operation_id()
        action = self.path.rstrip("/").rsplit("/", 1)[-1]
        if self.method == "POST" and action in ACTIONS:
            return operation_id.removesuffix("_create")
        if self.method == "POST" and action == "clock":
            return operation_id.removesuffix("_create") + "_set"
        return operation_id

    def get_operation(
        self,
        path: str,
        path_regex: str,
        path_prefix: str,
        method: str,
        registry: Any,
    ) -> dict[str, Any] | None:
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        error = self.resolve_serializer(ErrorSerializer, "response").ref
        for code in sorted(self.error_statuses(operation)):
            operation["responses"].setdefault(
                code,
                {
                    "description": ERROR_DESCRIPTIONS[code],
                    "content": {"application/json": {"schema": error}},
                },
            )
        return operation

    def error_statuses(self, operation: dict[str, Any]) -> set[str]:
        """What the operation can answer besides its own answers, from what it is:
        - 401 and 406 always (a bad, expired or revoked token is refused whatever the
          operation; an `Accept` without JSON);
        - 400 for a write (its body, or a service's refusal) and for a read with query
          parameters (filters, `page_size`);
        - 403 for a write (permissions, and a session's CSRF check) and for a read its
          permissions or its view guard (`GUARDED_READS`);
        - 404 when the path names something, or a list's `page` is past its end;
        - 409 and 422 for a write that calls a service guarding a state (all but
          `PLAIN_WRITES`): a race, a reused idempotency key, a stale `version`, a wrong state;
          a refusal of the domain;
        - 413 and 415 when it takes a body;
        - 429 when a throttle counts it, or when it takes a side's `pin` (an entry's PIN that
          has taken its wrong guesses for the hour is refused as `side-pin-locked`)."""
        reads = self.method in ("GET", "HEAD")
        parameters = operation.get("parameters", [])
        statuses = {"401", "406"}
        if not reads or any(p["in"] == "query" for p in parameters):
            statuses.add("400")
        permissions = self.view.get_permissions()
        open_read = all(isinstance(p, OPEN_READS) for p in permissions)
        if not reads or not open_read or operation["operationId"] in GUARDED_READS:
            statuses.add("403")
        if any(p["in"] == "path" or p["name"] == "page" for p in parameters):
            statuses.add("404")
        if not reads and operation["operationId"] not in PLAIN_WRITES:
            statuses |= {"409", "422"}
        if "requestBody" in operation:
            statuses |= {"413", "415"}
        if any(self._counts(throttle) for throttle in self.view.get_throttles()):
            statuses.add("429")
        if self._takes_pin():
            statuses.add("429")
        return statuses

    def _takes_pin(self) -> bool:
        """Whether the operation's body carries a side's PIN."""
        if self.method in ("GET", "HEAD"):
            return False
        serializer = self.get_request_serializer()
        if serializer is None or not is_serializer(serializer):
            return False
        component = self.resolve_serializer(serializer, "request")
        return "pin" in ((component.schema or {}).get("properties") or {})

    def _counts(self, throttle: BaseThrottle) -> bool:
        """A scoped throttle counts only a view with a scope; any other counts."""
        if isinstance(throttle, ScopedRateThrottle):
            return bool(getattr(self.view, throttle.scope_attr, None))
        return True


class ApiTokenScheme(OpenApiAuthenticationExtension):
    target_class = "api.authentication.ApiTokenAuthentication"
    name = "apiToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "A director's API token: `Authorization: Token <secret>` "
            "(POST /api/v1/auth/tokens).",
        }


class TableTokenScheme(OpenApiAuthenticationExtension):
    target_class = "api.authentication.TableTokenAuthentication"
    name = "tableToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "A table scorer's token: `Authorization: Table <secret>`, scoped to "
            "one table (from the QR code's URL fragment `#token=`).",
        }


class SessionScheme(OpenApiAuthenticationExtension):
    target_class = "api.authentication.SessionAuthentication"
    name = "cookieAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {"type": "apiKey", "in": "cookie", "name": "sessionid"}


def _pascal(name: str) -> str:
    return name[:1].upper() + name[1:]


def _component_schemas(name: str, prefix: str) -> dict[str, Any]:
    """A JSON Schema file's `$defs` as components `<prefix><Name>`, its refs rewritten."""
    schema = load_schema(name)
    defs = schema.pop("$defs", {})
    for key in ("$schema", "$id"):
        schema.pop(key, None)
    out = {}
    renamed = {f'"#/$defs/{k}"': f'"#/components/schemas/{prefix}{_pascal(k)}"' for k in defs}

    def rewrite(node: Any) -> Any:
        text = json.dumps(node)
        for old, new in renamed.items():
            text = text.replace(old, new)
        return json.loads(text)

    for key, value in defs.items():
        out[f"{prefix}{_pascal(key)}"] = rewrite(value)
    out[prefix.rstrip("_") or name] = rewrite(schema)
    for key in list(out):
        _hoist_object_variants(key, out)
    return out


def _hoist_object_variants(name: str, components: dict[str, Any]) -> None:
    """An object among a component's `oneOf`/`anyOf` variants becomes a component of its own,
    `<name><First required property>` (e.g. `HandRecordsRulesPreset`), referred to by `$ref`:
    client generators name an inline variant after its position, and two components' inline
    variants with the same nested object then collide (openapi-python-client drops both)."""
    schema = components[name]
    for keyword in ("oneOf", "anyOf"):
        for index, variant in enumerate(schema.get(keyword, ())):
            if not (isinstance(variant, dict) and variant.get("type") == "object"):
                continue
            if "properties" not in variant:
                continue
            label = (variant.get("required") or sorted(variant["properties"]))[0]
            hoisted = f"{name}{''.join(_pascal(part) for part in label.split('_'))}"
            components[hoisted] = variant
            schema[keyword][index] = {"$ref": f"#/components/schemas/{hoisted}"}


def add_record_schemas(result: dict, generator: Any, request: Request, public: bool) -> dict:
    """Postprocessing hook: the `hand-records` and `results` JSON Schemas as components."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(_component_schemas("hand-records", "HandRecords"))
    schemas.update(_component_schemas("results", "Results"))
    schemas["HandRecord"] = {
        "description": "A `hand/1` or a `match/1` record (see the hand-records format).",
        "oneOf": [
            {"$ref": "#/components/schemas/HandRecordsHand"},
            {"$ref": "#/components/schemas/HandRecordsMatch"},
        ],
    }
    schemas["ErrorCode"] = {
        "type": "string",
        "description": "Every `code` an error answer carries (`Error.code`). A client should "
        "treat a code it does not know by its HTTP status: codes are added, never renamed.",
        "enum": list(ERROR_CODES),
    }
    schemas["CheckResult"] = {
        "description": "The rules engine's result, as is (`ok`, and the score or `errors`).",
        "$ref": "#/components/schemas/Results",
    }
    return result


#: The live announcements on the event stream (`tournaments.services.notify` and
#: `tournaments.services.standings`): `event` names the kind, the other fields are those it has.
LIVE_EVENT = {
    "type": "object",
    "description": "One announcement (the `data:` of a server-sent event, whose `event:` is the "
    "same kind). `standings`: a new snapshot `version`; `round`: round `round` published; "
    "`hand-submitted`, `hand-confirmed`, `hand-rejected`: `hand` of `match` at `version` with "
    "its `status`; `match-finished`: `match`; `bracket`: the knockout bracket changed; `clock`: "
    "round `round`'s `clock`; `call`: `table` called the director (`open`) or was answered; "
    "`season`: a season the tournament belongs to changed.",
    "properties": {
        "event": {
            "type": "string",
            "enum": [
                "standings",
                "round",
                "hand-submitted",
                "hand-confirmed",
                "hand-rejected",
                "match-finished",
                "bracket",
                "clock",
                "call",
                "season",
            ],
        },
        "tournament": {"type": "integer"},
        "version": {"type": "integer"},
        "round": {"type": "integer", "description": "The round's number."},
        "match": {"type": "integer", "description": "The match's id."},
        "hand": {"type": "integer", "description": "The hand's number in the match."},
        "status": {"type": "string"},
        "table": {"type": "integer", "description": "The round's table's id."},
        "open": {"type": "boolean"},
        "clock": {"type": "object", "additionalProperties": True},
    },
    "required": ["event"],
}

LIVE_STANDINGS = {
    "type": "object",
    "description": "The latest standings snapshot: `version` 0 before the first, `stale` when "
    "results changed since it was computed.",
    "properties": {
        "tournament": {"type": "string"},
        "tiebreaks": {"type": "array", "items": {"type": "string"}},
        "rounds_closed": {"type": "integer"},
        "provisional": {
            "type": ["array", "null"],
            "items": {"type": "object", "additionalProperties": True},
        },
        "rows": {"type": "array", "items": {"$ref": "#/components/schemas/LiveStandingsRow"}},
        "version": {"type": "integer"},
        "stale": {"type": "boolean"},
        "computed_at": {"type": ["string", "null"], "format": "date-time"},
        "age_seconds": {"type": ["number", "null"]},
    },
    "required": ["tournament", "rows", "version", "stale", "computed_at", "age_seconds"],
}

LIVE_STANDINGS_ROW = {
    "type": "object",
    "properties": {
        "rank": {"type": "integer"},
        "tied": {"type": "boolean"},
        "entry": {"type": "integer"},
        "name": {"type": "string"},
        "players": {"type": "array", "items": {"type": "string"}},
        "withdrawn": {"type": "boolean"},
        "values": {
            "type": "object",
            "description": "Each tiebreak's value: an integer, or an exact fraction as a "
            'string ("7/2").',
            "additionalProperties": {"type": ["integer", "string"]},
        },
    },
    "required": ["rank", "tied", "entry", "name", "players", "withdrawn", "values"],
}


def _slug_parameter() -> dict[str, Any]:
    return {"name": "slug", "in": "path", "required": True, "schema": {"type": "string"}}


def _error(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }


def add_live_paths(result: dict, generator: Any, request: Request, public: bool) -> dict:
    """Postprocessing hook: the live standings and the event stream, plain Django views (no DRF
    on the hottest reads), documented beside the DRF operations."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["LiveStandings"] = LIVE_STANDINGS
    schemas["LiveStandingsRow"] = LIVE_STANDINGS_ROW
    schemas["LiveEvent"] = LIVE_EVENT
    paths = result.setdefault("paths", {})
    paths["/api/v1/tournaments/{slug}/standings"] = {
        "get": {
            "operationId": "tournaments_standings_retrieve",
            "summary": "The live standings (the latest snapshot), with an ETag",
            "tags": ["tournaments"],
            "security": [{}],
            "parameters": [
                _slug_parameter(),
                {
                    "name": "If-None-Match",
                    "in": "header",
                    "required": False,
                    "schema": {"type": "string"},
                    "description": "The `ETag` of the standings last read: 304 while they are "
                    "the same.",
                },
            ],
            "responses": {
                "200": {
                    "description": "The standings",
                    "headers": {
                        "ETag": {"schema": {"type": "string"}},
                        "Last-Modified": {"schema": {"type": "string"}},
                    },
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/LiveStandings"}
                        }
                    },
                },
                "304": {"description": "Not modified since the `If-None-Match` ETag"},
                "404": _error("No tournament with this slug (`not-found`)"),
            },
        }
    }
    paths["/api/v1/tournaments/{slug}/events"] = {
        "get": {
            "operationId": "tournaments_events_stream",
            "summary": "Live announcements as server-sent events",
            "description": "A `text/event-stream`: `retry:` first, then one message per "
            "announcement (`id:`, `event:` the kind, `data:` a `LiveEvent` as JSON), and "
            "`: heartbeat` comments while quiet. Reconnect with `Last-Event-ID` to resume "
            "after the last id read.",
            "tags": ["tournaments"],
            "security": [{}],
            "parameters": [
                _slug_parameter(),
                {
                    "name": "Last-Event-ID",
                    "in": "header",
                    "required": False,
                    "schema": {"type": "string"},
                    "description": "Resume after this event id.",
                },
            ],
            "responses": {
                "200": {
                    "description": "The stream; each `data:` is a `LiveEvent`",
                    "content": {
                        "text/event-stream": {
                            "schema": {"type": "string"},
                            "x-event-schema": {"$ref": "#/components/schemas/LiveEvent"},
                        }
                    },
                },
                "404": _error("No tournament with this slug (`not-found`)"),
                "429": _error("Too many streams open from this client (`throttled`)"),
            },
        }
    }
    return result
