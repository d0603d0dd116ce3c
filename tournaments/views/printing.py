"""printing pages (see tournaments/views/__init__.py)."""

urlpatterns: list = []
