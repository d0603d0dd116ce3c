from tournaments.checker import views as checker
from tournaments.clubs import archive_views as club_archives
from tournaments.clubs import views as clubs
from tournaments.duplicate import views as duplicate
from tournaments.federation import views as federation
from tournaments.knockout import views as knockout
from tournaments.members import views as members
from tournaments.people import views as people
from tournaments.printing import views as printing
from tournaments.publishing import views as publishing
from tournaments.room import views as room
from tournaments.seasons import views as seasons
from tournaments.staticsite import views as staticsite
from tournaments.views import (
    director,
    exports,
    imports,
    public,
    scoring,
)

app_name = "tournaments"

# Each page module lists its own routes (see tournaments/views/__init__.py).
urlpatterns = [
    *public.urlpatterns,
    *seasons.urlpatterns,
    *scoring.urlpatterns,
    *duplicate.urlpatterns,
    *publishing.urlpatterns,  # before the director's `director/<slug>/`
    *members.urlpatterns,  # likewise (`director/members/`)
    *club_archives.urlpatterns,  # likewise (`director/club/archive/`)
    *clubs.urlpatterns,  # likewise (`director/club/`)
    *federation.urlpatterns,  # likewise (`director/federation/`)
    *people.urlpatterns,  # likewise (`director/members/<id>/clubs/`)
    *staticsite.urlpatterns,
    *director.urlpatterns,
    *exports.urlpatterns,
    *printing.urlpatterns,
    *imports.urlpatterns,
    *checker.urlpatterns,
    *knockout.urlpatterns,
    *room.urlpatterns,
]
