"""Public pages: anyone may read them."""

from django.shortcuts import render
from django.urls import path


def home(request):
    """Public home page: what TrickTable is and which games it runs."""
    return render(request, "home.html")


urlpatterns = [
    path("", home, name="home"),
]
