"""The `$ref`s of the OpenAPI components `api.schema.add_record_schemas` defines (the `hand/1`
JSON Schema and the check result), for the serializers and views that point at them. A leaf:
the serializers need these names, and the schema module needs the serializers."""

HAND_RECORD_REF = "#/components/schemas/HandRecord"  # a hand/1 or a match/1 record
HAND_REF = "#/components/schemas/HandRecordsHand"  # a hand/1 record
CHECK_RESULT_REF = "#/components/schemas/CheckResult"
