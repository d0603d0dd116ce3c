"""Settings for the replacement worker of the worker-killed test: the project's settings, with
the Redis transport handing a dead consumer's unacknowledged messages back after 2 seconds
instead of an hour, so the test can see the killed worker's task redelivered (acks_late)."""

from config.settings import *  # noqa: F403

CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 2,
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
}
