"""A test URLconf: the live routes under /api/v1/ (until api/urls.py includes them)."""

from django.urls import include, path

urlpatterns = [path("api/v1/", include("api.live_urls"))]
