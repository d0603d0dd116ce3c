from tournaments.views import checker, director, exports, imports, printing, public, scoring

app_name = "tournaments"

# Each page module lists its own routes (see tournaments/views/__init__.py).
urlpatterns = [
    *public.urlpatterns,
    *scoring.urlpatterns,
    *director.urlpatterns,
    *exports.urlpatterns,
    *printing.urlpatterns,
    *imports.urlpatterns,
    *checker.urlpatterns,
]
