"""CPU a live standings poll costs in-process, through Django's ASGI handler (what uvicorn runs,
config/asgi.py) or its WSGI handler (asgiref's WsgiToAsgi around it): no HTTP server and no wrk,
so the figure is the handler's, middleware's and view's alone.

    DATABASE_URL=postgres://… REDIS_URL=redis://… SECURE_SSL_REDIRECT=0 DEBUG=0 \\
        .venv/bin/python bench/standings_poll_cpu.py SLUG [--requests 1000] [--etag ETAG] \\
        [--handler asgi|wsgi] [--profile]

SLUG: a tournament of the database (bench/api.py loads `manage.py demo` into its database: the
standings of `spring-spades-cup`). `--etag`: send it as If-None-Match (a 304 when current). The
process's CPU (all threads) over --requests requests, after 50 to warm up, divided by the
requests; `--profile` then prints cProfile's top functions by their own time.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def application(handler: str) -> Any:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if handler == "wsgi":
        from asgiref.wsgi import WsgiToAsgi
        from django.core.wsgi import get_wsgi_application

        return WsgiToAsgi(get_wsgi_application())
    from django.core.asgi import get_asgi_application

    return get_asgi_application()


async def poll(app: Any, scope: dict[str, Any]) -> int:
    sent: list[dict[str, Any]] = []
    asked = False

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.sleep(3600)  # the client stays until the answer is complete
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(dict(scope), receive, send)
    return int(sent[0]["status"])


async def measure(args: argparse.Namespace) -> None:
    app = application(args.handler)
    path = f"/api/v1/tournaments/{args.slug}/standings"
    headers = [(b"host", b"127.0.0.1"), (b"accept", b"*/*")]
    if args.etag:
        headers.append((b"if-none-match", args.etag.encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "headers": headers,
    }
    for _ in range(50):
        status = await poll(app, scope)
    started = time.process_time()
    for _ in range(args.requests):
        await poll(app, scope)
    cpu = time.process_time() - started
    print(
        f"{args.handler}: status {status}, {1e6 * cpu / args.requests:,.0f} µs of CPU a poll "
        f"({args.requests:,} polls, load average {os.getloadavg()[0]:.2f})"
    )
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(args.requests):
            await poll(app, scope)
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("slug")
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--etag", default=None, help="sent as If-None-Match")
    parser.add_argument("--handler", choices=["asgi", "wsgi"], default="asgi")
    parser.add_argument("--profile", action="store_true")
    asyncio.run(measure(parser.parse_args()))


if __name__ == "__main__":
    main()
