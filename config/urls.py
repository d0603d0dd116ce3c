"""Top-level URL configuration."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/", include("api.urls")),
    path("", include("tournaments.urls")),
]

# Error pages in the site's design (JSON under /api/): tournaments/views/errors.py.
handler400 = "tournaments.views.errors.bad_request"
handler403 = "tournaments.views.errors.permission_denied"
handler404 = "tournaments.views.errors.page_not_found"
handler500 = "tournaments.views.errors.server_error"
