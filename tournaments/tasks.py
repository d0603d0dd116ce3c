"""Celery tasks: thin wrappers around services and the rules engine."""

from celery import shared_task


@shared_task(name="tournaments.check_records")
def check_records(records: list[dict]) -> list[dict]:
    """Check hand/match records with the rules engine; one result object per record, in order.

    Used by bulk imports. Runs in-process when REDIS_URL is unset, on a worker otherwise.
    """
    from games.records import check_record

    return [check_record(record) for record in records]
