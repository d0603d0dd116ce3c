"""Live standings routes, included under /api/v1/ by api/urls.py."""

from django.urls import path

from . import live

urlpatterns = [
    path("tournaments/<slug:slug>/standings", live.standings, name="live-standings"),
    path("tournaments/<slug:slug>/events", live.events, name="live-events"),
]
