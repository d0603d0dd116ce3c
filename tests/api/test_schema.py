"""The OpenAPI document: generated without warnings, valid, with the error shape, the auth
schemes and the hand/1 JSON Schema."""

from __future__ import annotations

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(client) -> dict:
    response = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return response.json()


def test_the_schema_generates_and_validates_without_warnings(tmp_path):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yml"))


def test_the_error_shape_is_a_component_used_by_the_4xx_responses(schema):
    assert set(schema["components"]["schemas"]["Error"]["required"]) == {
        "code",
        "message",
        "details",
    }
    submit = schema["paths"]["/api/v1/matches/{id}/hands"]["post"]["responses"]
    for code in ("400", "401", "403", "404", "409", "413", "422", "429"):
        ref = submit[code]["content"]["application/json"]["schema"]["$ref"]
        assert ref == "#/components/schemas/Error"


def test_the_auth_schemes_are_documented(schema):
    schemes = schema["components"]["securitySchemes"]
    assert {"apiToken", "tableToken", "cookieAuth"} <= set(schemes)
    assert "Table <secret>" in schemes["tableToken"]["description"]


def test_the_hand_record_schema_is_a_component_the_hand_endpoints_use(schema):
    components = schema["components"]["schemas"]
    assert "HandRecordsHand" in components and "HandRecordsMatch" in components
    check = schema["paths"]["/api/v1/hands/check"]["post"]["requestBody"]["content"]
    assert check["application/json"]["schema"] == {"$ref": "#/components/schemas/HandRecord"}
    submit = components["SubmitRequest"]["properties"]["record"]
    assert submit["allOf"] == [{"$ref": "#/components/schemas/HandRecordsHand"}]
    text = str(components)
    assert "#/$defs/" not in text


def test_every_operation_has_a_documented_success_response(schema):
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            codes = [c for c in operation.get("responses", {}) if c.startswith("2")]
            assert codes, f"{method.upper()} {path}"


def _walk(node, path=""):
    """Every (path, dict) in a JSON document."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _walk(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _walk(value, f"{path}/{index}")


def test_nothing_is_said_nullable_the_openapi_3_0_way(schema):
    """The document is OpenAPI 3.1, which has no `nullable`: a value that may be null has a
    `"null"` type (a 3.1 validator refuses `"next": null` on every last page otherwise)."""
    assert schema["openapi"].startswith("3.1")
    assert [path for path, node in _walk(schema) if "nullable" in node] == []
    page = schema["components"]["schemas"]["PaginatedTournamentList"]["properties"]
    assert page["next"]["type"] == ["string", "null"]


def test_no_oneof_variant_is_an_inline_object(schema):
    """Objects with properties among `oneOf`/`anyOf` variants are components of their own:
    client generators name inline variants by position, and the hand records' rules collided
    that way (a free-form object, a mapping, stays inline)."""
    inline = [
        path
        for path, node in _walk(schema["components"]["schemas"])
        for keyword in ("oneOf", "anyOf")
        for variant in node.get(keyword, ())
        if isinstance(variant, dict) and variant.get("type") == "object" and "properties" in variant
    ]
    assert inline == []
    rules = schema["components"]["schemas"]["HandRecordsRules"]["oneOf"]
    assert {"$ref": "#/components/schemas/HandRecordsRulesPreset"} in rules


def test_an_action_is_named_after_itself_and_a_creation_says_create(schema):
    ids = {
        (method, path): operation["operationId"]
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
    }
    assert ids[("post", "/api/v1/rounds/{id}/publish")] == "rounds_publish"
    assert ids[("post", "/api/v1/matches/{id}/hands/{number}/confirm")] == "matches_hands_confirm"
    assert ids[("post", "/api/v1/rounds/{id}/clock")] == "rounds_clock_set"
    assert ids[("post", "/api/v1/matches/{id}/hands")] == "matches_hands_create"
    assert len(set(ids.values())) == len(ids)
