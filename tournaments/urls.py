from tournaments.views import checker, director, exports, public, scoring

app_name = "tournaments"

# Each page module lists its own routes (see tournaments/views/__init__.py).
urlpatterns = [
    *public.urlpatterns,
    *scoring.urlpatterns,
    *director.urlpatterns,
    *exports.urlpatterns,
    *checker.urlpatterns,
]
