"""The director's pages (see tournaments/views/__init__.py): signed-in directors only."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path


@login_required
def director_home(request):
    return render(request, "tournaments/director/home.html", {})


urlpatterns = [
    path("director/", director_home, name="director-home"),
]
