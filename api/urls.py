"""REST API, version 1: /api/v1/..."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

app_name = "api"

urlpatterns = [
    path("v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("v1/docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("v1/redoc/", SpectacularRedocView.as_view(url_name="api:schema"), name="redoc"),
]
