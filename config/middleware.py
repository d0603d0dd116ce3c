"""The middleware chain in one mode under ASGI.

Django runs a middleware in the mode the one inside it left the request in: from the innermost
one that is synchronous only, everything outside it runs synchronously. django-axes' middleware,
last in the list as it asks, is declared both synchronous and asynchronous, so the middleware
inside ours (`api.middleware.ApiErrorsMiddleware`, synchronous) ran asynchronously, each of their
hooks a hop to a thread and back (Django's `MiddlewareMixin.__acall__`), and a plain view one
more. Declared synchronous here (Django's `async_capable` attribute, on the subclass axes'
documentation suggests), the whole chain and a plain view run in one thread, one hop a request;
an async view (the events stream) is called from it as Django calls any async view there.
"""

from __future__ import annotations

from axes.middleware import AxesMiddleware


class SyncAxesMiddleware(AxesMiddleware):
    async_capable = False
