from django.shortcuts import render


def home(request):
    """Public home page: what TrickTable is and which games it runs."""
    return render(request, "home.html")
