from tournaments.publishing import views as publishing
from tournaments.views import (
    checker,
    director,
    duplicate,
    exports,
    imports,
    knockout,
    printing,
    public,
    room,
    scoring,
    seasons,
)

app_name = "tournaments"

# Each page module lists its own routes (see tournaments/views/__init__.py).
urlpatterns = [
    *public.urlpatterns,
    *seasons.urlpatterns,
    *scoring.urlpatterns,
    *duplicate.urlpatterns,
    *publishing.urlpatterns,  # before the director's `director/<slug>/`
    *director.urlpatterns,
    *exports.urlpatterns,
    *printing.urlpatterns,
    *imports.urlpatterns,
    *checker.urlpatterns,
    *knockout.urlpatterns,
    *room.urlpatterns,
]
