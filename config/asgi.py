"""ASGI entry point (for uvicorn: uvicorn config.asgi:application).

Every request goes to Django's ASGI handler, behind the request body limit
(`config/body_limit.py`): a body over REQUEST_BODY_LIMIT is refused with 413 while it arrives,
and a chunked body reaches Django with its length stated. At uvicorn's lifespan startup a worker
does its first requests' work before it accepts one (`config/warm.py`).
"""

import asyncio
import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django = get_asgi_application()

from config import warm  # noqa: E402  (needs the apps loaded)
from config.body_limit import BodyLimit, Receive, Scope, Send  # noqa: E402
from config.concurrency import OneConnectionEach  # noqa: E402

django_application = OneConnectionEach(django)  # config/concurrency.py

# Everything loaded so far lives as long as the process: keep it out of the cyclic collector,
# whose full passes over it stalled the event loop (the p99 of a cached poll).
gc.freeze()


async def _lifespan(receive: Receive, send: Send) -> None:
    """uvicorn's start and stop: the first requests' work done before the first request
    (`config/warm.py`), then kept out of the cyclic collector like the rest."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await asyncio.to_thread(warm.warm_up)
            gc.freeze()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


async def _application(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "lifespan":
        await _lifespan(receive, send)
        return
    await django_application(scope, receive, send)


application = BodyLimit(_application)
