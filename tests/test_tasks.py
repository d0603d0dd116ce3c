"""The Celery task is registered and routed as configured: in-process without REDIS_URL."""

from django.conf import settings

from config.celery import app
from tests import waiting
from tournaments.tasks import check_records


def test_task_registered(db):  # importing the tasks runs Django's model checks (database)
    app.loader.import_default_modules()
    assert "tournaments.check_records" in app.tasks


def test_routing_follows_redis_url():
    if settings.REDIS_URL:
        assert settings.CELERY_TASK_ALWAYS_EAGER is False
        assert app.conf.broker_url == settings.REDIS_URL
        assert app.conf.result_backend == settings.REDIS_URL
    else:
        assert settings.CELERY_TASK_ALWAYS_EAGER is True
        assert check_records.delay([]).get(timeout=waiting.SECONDS) == []


def test_runs_in_process():
    assert check_records.apply(args=([],)).get(timeout=waiting.SECONDS) == []
