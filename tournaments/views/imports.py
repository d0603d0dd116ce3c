"""Import pages (see tournaments/views/__init__.py), for the tournament's directors only:

- entries from a CSV or XLSX file: upload, a preview of every row (nothing stored), then one
  click imports them all or none. Between the preview and the click the rows travel in a hidden
  field, signed (django.core.signing) for this tournament and this director and valid for an
  hour: an edited or stale payload is refused, never trusted.
- hand records from a JSON Lines file: a background job (services.hand_imports) whose page shows
  a progress bar that static/js/imports.js keeps up to date from the job's status JSON.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from django import forms
from django.contrib import messages
from django.core import signing
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from tournaments import services
from tournaments.models import ImportJob, Tournament
from tournaments.services import Actor, hand_imports
from tournaments.services import imports as entry_imports
from tournaments.views.access import director_page
from tournaments.words.engine import refusal_words

SIGNING_SALT = "tricktable.imports.entries"
#: How long a preview may wait for its "Import" click.
PREVIEW_MAX_AGE = 60 * 60
RECENT_JOBS = 10

REFUSAL = gettext_lazy("Only this tournament's directors may import into it.")


class EntriesUploadForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Entries file (CSV or XLSX)"))


class HandsUploadForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Hand records file (JSON Lines)"))


def _read(upload: UploadedFile, limit: int) -> bytes:
    """At most limit + 1 bytes of the upload: enough for the service to say it is too large
    without reading a huge file into memory."""
    return upload.read(limit + 1)


# -- entries -------------------------------------------------------------------------------------


def _team_columns(team_event: bool) -> list[str]:
    return (
        ["team", "player1", "club1", "player2", "club2", "seed"]
        if team_event
        else ["player", "club", "seed"]
    )


def sign_rows(
    tournament: Tournament, request: HttpRequest, preview: entry_imports.EntriesPreview
) -> str:
    """The preview's rows, signed for this tournament and director (compressed, timestamped)."""
    rows = []
    for row in preview.rows:
        cells: list[Any] = [row.row]
        if preview.team_event:
            cells.append(row.team)
        for player in row.players:
            cells += [player.name, player.club_number]
        cells.append(row.seed)
        rows.append(cells)
    payload = {
        "t": tournament.pk,
        "u": request.user.pk,
        "f": preview.filename,
        "team": preview.team_event,
        "rows": rows,
    }
    return signing.dumps(payload, salt=SIGNING_SALT, compress=True)


def unsign_rows(tournament: Tournament, request: HttpRequest, token: str) -> dict:
    """The signed payload, if it is intact, recent, and for this tournament and director;
    raises signing.BadSignature otherwise."""
    payload = signing.loads(token, salt=SIGNING_SALT, max_age=PREVIEW_MAX_AGE)
    if (
        not isinstance(payload, dict)
        or payload.get("t") != tournament.pk
        or payload.get("u") != request.user.pk
        or payload.get("team") != tournament.is_team_event
        or not isinstance(payload.get("rows"), list)
    ):
        raise signing.BadSignature("the preview belongs to another tournament or director")
    return payload


def rows_csv(payload: dict) -> bytes:
    """The previewed rows as a canonical CSV for services.import_entries (row i of the rows is
    line i + 2, after the header)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(_team_columns(payload["team"]))
    for cells in payload["rows"]:
        writer.writerow(["" if cell is None else cell for cell in cells[1:]])
    return out.getvalue().encode("utf-8")


def _csv_name(filename: str) -> str:
    """The name the re-written rows are imported under (and audited as): always a .csv, since
    they are CSV whatever the upload was (`club.xlsx` becomes `club.xlsx.csv`)."""
    return filename if filename.lower().endswith(".csv") else f"{filename}.csv"


def _renumber(preview: entry_imports.EntriesPreview, originals: list[int]) -> None:
    """Give the confirmed import's rows (and errors) the row numbers of the uploaded file."""
    for row in preview.rows:
        index = row.row - 2
        if 0 <= index < len(originals):
            row.row = originals[index]
            row.errors = [
                entry_imports.RowError(e.code, e.message, row.row, e.column) for e in row.errors
            ]


def _entries_context(tournament: Tournament, **extra: Any) -> dict:
    return {
        "tournament": tournament,
        "max_rows": entry_imports.MAX_ROWS,
        "max_mb": entry_imports.MAX_BYTES // (1024 * 1024),
        **extra,
    }


@director_page(refusal=REFUSAL)
@require_http_methods(["GET", "POST"])
def entries(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    """GET: the upload form. POST: the preview of the file (a dry run: nothing is stored)."""
    if request.method == "GET":
        return render(
            request,
            "tournaments/imports/entries.html",
            _entries_context(tournament, form=EntriesUploadForm()),
        )
    form = EntriesUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return render(
            request,
            "tournaments/imports/entries.html",
            _entries_context(tournament, form=form),
            status=400,
        )
    upload = form.cleaned_data["file"]
    try:
        preview = services.import_entries(
            tournament=tournament,
            actor=actor,
            data=_read(upload, entry_imports.MAX_BYTES),
            filename=upload.name or "",
            dry_run=True,
        )
    except services.ServiceError as error:
        form.add_error(None, error.message)
        return render(
            request,
            "tournaments/imports/entries.html",
            _entries_context(tournament, form=form),
            status=error.status,
        )
    return _preview(request, tournament, preview)


def _preview(
    request: HttpRequest,
    tournament: Tournament,
    preview: entry_imports.EntriesPreview,
    *,
    status: int = 200,
) -> HttpResponse:
    context = _entries_context(
        tournament,
        preview=preview,
        form=EntriesUploadForm(),
        errors=preview.all_errors,
        payload=sign_rows(tournament, request, preview) if preview.ok else "",
    )
    response = render(request, "tournaments/imports/entries_preview.html", context, status=status)
    add_never_cache_headers(response)
    return response


@director_page(refusal=REFUSAL)
@require_http_methods(["POST"])
def entries_confirm(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    """Import the previewed rows, all or none (services.import_entries)."""
    try:
        payload = unsign_rows(tournament, request, request.POST.get("payload", ""))
    except signing.BadSignature:  # includes SignatureExpired
        messages.error(
            request,
            _(
                "The preview was changed, has expired or belongs to another tournament: "
                "upload the file again."
            ),
        )
        return render(
            request,
            "tournaments/imports/entries.html",
            _entries_context(tournament, form=EntriesUploadForm()),
            status=400,
        )
    try:
        preview = services.import_entries(
            tournament=tournament,
            actor=actor,
            data=rows_csv(payload),
            filename=_csv_name(str(payload.get("f") or "entries")),
        )
    except services.ServiceError as error:
        messages.error(request, error.message)
        return redirect("tournaments:imports-entries", slug=tournament.slug)
    _renumber(preview, [cells[0] for cells in payload["rows"]])
    preview.filename = str(payload.get("f") or "")
    if not preview.imported:  # something changed since the preview: nothing was stored
        return _preview(request, tournament, preview, status=409)
    messages.success(
        request,
        _("Imported %(count)s entries from %(file)s.")
        % {"count": len(preview.created), "file": preview.filename},
    )
    return redirect("tournaments:imports-entries", slug=tournament.slug)


# -- hand records --------------------------------------------------------------------------------


def _hands_page(
    request: HttpRequest, tournament: Tournament, form: HandsUploadForm, status: int = 200
) -> HttpResponse:
    jobs = ImportJob.objects.filter(tournament=tournament).defer("content", "errors")[:RECENT_JOBS]
    return render(
        request,
        "tournaments/imports/hands.html",
        {
            "tournament": tournament,
            "form": form,
            "jobs": jobs,
            "max_mb": hand_imports.MAX_BYTES // (1024 * 1024),
            "max_lines": hand_imports.MAX_LINES,
        },
        status=status,
    )


@director_page(refusal=REFUSAL)
@require_http_methods(["GET", "POST"])
def hands(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    """GET: the upload form and recent jobs. POST: start a job and go to its page."""
    if request.method == "GET":
        return _hands_page(request, tournament, HandsUploadForm())
    form = HandsUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _hands_page(request, tournament, form, status=400)
    upload = form.cleaned_data["file"]
    try:
        job = hand_imports.start_hand_import(
            tournament=tournament,
            actor=actor,
            data=_read(upload, hand_imports.MAX_BYTES),
            filename=upload.name or "",
        )
    except services.ServiceError as error:
        form.add_error("file", f"{error.message} ({error.code})")
        return _hands_page(request, tournament, form, status=error.status)
    return redirect("tournaments:imports-job", slug=tournament.slug, job_id=job.pk)


def _job(tournament: Tournament, job_id: int) -> ImportJob:
    return get_object_or_404(
        ImportJob.objects.defer("content").select_related("created_by"),
        pk=job_id,
        tournament=tournament,
    )


def job_status(job: ImportJob) -> dict[str, Any]:
    return {
        "id": job.pk,
        "state": job.state,
        "state_label": str(job.get_state_display()),
        "finished": job.finished,
        "total": job.total,
        "processed": job.processed,
        "stored": job.stored,
        "duplicates": job.duplicates,
        "failed": job.failed,
        "percent": job.percent,
        "message": job.message,
    }


def line_errors(job: ImportJob) -> list[dict[str, Any]]:
    """The lines not imported, each with its problem in the director's language where the rules
    engine refused the hand (its sentence; the stored English otherwise) and its code."""
    shown = []
    for error in job.errors or []:
        if not isinstance(error, dict):
            continue
        text, _details = refusal_words(
            str(error.get("code", "")), str(error.get("message", "")), error.get("details")
        )
        shown.append({**error, "text": text})
    return shown


@director_page(refusal=REFUSAL)
@require_http_methods(["GET"])
def job(request: HttpRequest, tournament: Tournament, actor: Actor, job_id: int) -> HttpResponse:
    """A job's progress (a bar kept up to date by imports.js, or by reloading) and, once it is
    finished, the lines that were not imported."""
    found = _job(tournament, job_id)
    response = render(
        request,
        "tournaments/imports/job.html",
        {
            "tournament": tournament,
            "job": found,
            "status": job_status(found),
            "line_errors": line_errors(found),
        },
    )
    add_never_cache_headers(response)
    return response


@director_page(refusal=REFUSAL)
@require_http_methods(["GET"])
def status(request: HttpRequest, tournament: Tournament, actor: Actor, job_id: int) -> JsonResponse:
    """The job's progress as JSON (polled every second by imports.js)."""
    response = JsonResponse(job_status(_job(tournament, job_id)))
    add_never_cache_headers(response)
    return response


urlpatterns = [
    path("director/<slug:slug>/import/entries/", entries, name="imports-entries"),
    path(
        "director/<slug:slug>/import/entries/confirm/",
        entries_confirm,
        name="imports-entries-confirm",
    ),
    path("director/<slug:slug>/import/hands/", hands, name="imports-hands"),
    path("director/<slug:slug>/import/jobs/<int:job_id>/", job, name="imports-job"),
    path("director/<slug:slug>/import/jobs/<int:job_id>/status", status, name="imports-job-status"),
]
