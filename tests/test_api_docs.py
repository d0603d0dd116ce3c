"""The OpenAPI document and its docs pages are served, with no asset from the network."""

import pytest

pytestmark = pytest.mark.django_db


def test_schema(client):
    response = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "TrickTable API"


@pytest.mark.parametrize("url", ["/api/v1/docs/", "/api/v1/redoc/"])
def test_docs_pages_use_local_assets(client, url):
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/drf_spectacular_sidecar/" in html
    assert "cdn.jsdelivr.net" not in html
    assert "/api/v1/schema/" in html
