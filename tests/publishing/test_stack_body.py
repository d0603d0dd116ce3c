"""A published event's archive is megabytes: a club evening of 16 teams with every hand's play
is 2 MB after two rounds (bench/publishing.py found the site refusing it with 413 past the
1 MiB every other JSON body may have; then DRF's reading of a JSON body through Django's
`request.body` stops at DATA_UPLOAD_MAX_MEMORY_SIZE, 2.5 MB, about four rounds). The publish
endpoint reads up to REQUEST_BODY_LIMIT."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

MIB = 1024 * 1024


def publish(key: str, size: int) -> tuple[int, str]:
    """PUT a JSON document of about `size` bytes that is no archive at all."""
    body = json.dumps({"format": "not-an-archive", "padding": "x" * size})
    answer = APIClient().put(
        "/api/v1/publish/friday-at-the-club",
        data=body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {key}",
    )
    return answer.status_code, answer.json().get("code", "")


def test_an_archive_of_several_megabytes_is_read(site_key):
    status, code = publish(site_key[1], 4 * MIB)
    assert (status, code) != (413, "too-large")
    assert status == 400  # read whole, then refused for what it is: not an archive


def test_past_the_request_body_limit_it_is_refused_as_too_large(site_key):
    assert publish(site_key[1], settings.REQUEST_BODY_LIMIT + 1)[0] == 413


def test_a_document_that_is_not_json_is_a_clear_error(site_key):
    answer = APIClient().put(
        "/api/v1/publish/friday-at-the-club",
        data=b'{"format": NaN}',
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {site_key[1]}",
    )
    assert answer.status_code == 400
    assert "JSON parse error" in answer.json()["message"]
