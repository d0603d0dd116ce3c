"""The table scoring page: opened from the QR code on a table card; the table token travels in
the URL fragment and the page talks to the REST API with it."""

from django.shortcuts import get_object_or_404, render
from django.urls import path

from tournaments.models import Table


def table(request, table_id: int):
    found = get_object_or_404(Table.objects.select_related("round__tournament"), pk=table_id)
    return render(request, "tournaments/scoring/table.html", {"table": found})


urlpatterns = [
    path("table/<int:table_id>/", table, name="scoring-table"),
]
