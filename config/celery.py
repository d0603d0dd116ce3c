"""Celery application. Start a worker with: celery -A config worker -l info

A worker process keeps what it has loaded at its start (Django, the apps, the tasks, the rule
sets) out of the cyclic garbage collector once it is ready to take tasks, as a web process does
at its start (config/asgi.py): the collector's full passes otherwise scan all of it during
every standings recompute, whose engine makes many small containers (docs/benchmarks.md).
`gc.freeze()` is the worker's own decision for its own process, taken by its entry point through
Celery's documented signals: `worker_process_init` in each child of the prefork pool,
`worker_ready` in the worker's main process (the solo and thread pools run tasks there).
"""

import gc
import os
from typing import Any

from celery import Celery
from celery.signals import worker_process_init, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("tricktable")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
@worker_ready.connect
def _keep_what_is_loaded(**_: Any) -> None:
    gc.freeze()
