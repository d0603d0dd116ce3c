"""A Python client generated from the live OpenAPI document by openapi-python-client, as a
club's developer would make it, and the plumbing to drive it in process: the generated client
speaks HTTP through httpx, and a custom httpx transport hands each request to Django's test
client (the whole request path, middleware included, on the test database; Django's WSGI
handler itself would close the test database's connection after each request)."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
from django.test import Client

PACKAGE = "tricktable_contract_client"
#: openapi-python-client's documented config (docs/api.md): downloads are bytes to the client
#: (it reads any text/* answer as text, and knows no JSON Lines).
CONFIG = (
    "content_type_overrides:\n"
    "  application/x-ndjson: application/octet-stream\n"
    "  text/csv: application/octet-stream\n"
)
BASE = "http://testserver"


def live_document() -> dict[str, Any]:
    response = Client().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return response.json()


@dataclass(frozen=True)
class Generated:
    package: ModuleType
    output: str  # what the generator printed

    def module(self, name: str) -> Any:
        """A generated module, e.g. `api.rounds.rounds_publish` or `models`."""
        return importlib.import_module(f"{PACKAGE}.{name}")

    def client(self, authorization: str | None = None) -> Any:
        """A generated client whose requests go to Django in this process."""
        headers = {"Authorization": authorization} if authorization else {}
        transport = DjangoTransport()
        plain = self.module("client").Client(base_url=BASE, raise_on_unexpected_status=True)
        plain.set_httpx_client(httpx.Client(base_url=BASE, transport=transport, headers=headers))
        return plain


class DjangoTransport(httpx.BaseTransport):
    """httpx's documented extension point: each request answered by `django.test.Client`."""

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        headers = {
            name: value
            for name, value in request.headers.items()
            if name.lower() not in ("host", "content-length", "content-type")
        }
        answer = Client().generic(
            request.method,
            request.url.raw_path.decode(),
            data=request.read(),
            content_type=request.headers.get("content-type", ""),
            headers=headers,
        )
        content = b"".join(answer.streaming_content) if answer.streaming else answer.content
        return httpx.Response(
            answer.status_code, headers=list(answer.items()), content=content, request=request
        )


def generate(document: dict[str, Any], folder: Path) -> Generated:
    """Write the document, run the generator (the venv's own command) and import its package."""
    spec, config = folder / "openapi.json", folder / "config.yaml"
    spec.write_text(json.dumps(document))
    config.write_text(CONFIG)
    command = Path(sys.executable).with_name("openapi-python-client")
    done = subprocess.run(
        [
            str(command),
            "generate",
            "--path",
            str(spec),
            "--config",
            str(config),
            "--meta",
            "none",
            "--output-path",
            str(folder / PACKAGE),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        # Its post hooks run ruff, which is beside it in this venv.
        env={**os.environ, "PATH": f"{command.parent}{os.pathsep}{os.environ.get('PATH', '')}"},
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
        del sys.modules[name]
    sys.path.insert(0, str(folder))
    try:  # its modules are found through the package's own path from here on
        package = importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
    return Generated(package, output)
