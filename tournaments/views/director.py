"""The director's pages (see tournaments/views/__init__.py): signed-in directors only.

Every page of a tournament checks that the signed-in user directs it (a superuser directs all);
anyone else gets 403. Every POST is one service call: its refusal (`ServiceError`) is shown as a
message or against the form, its success as a message, then the browser is redirected (PRG).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.forms import BooleanField, Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import presentation, services
from tournaments.clubs.services import current_club
from tournaments.knockout.forms import KnockoutForm
from tournaments.knockout.services import SETTING_REFUSALS
from tournaments.models import (
    Entry,
    HandSubmission,
    KeepApart,
    Match,
    Round,
    TableToken,
    Tournament,
)
from tournaments.room.views import room_context
from tournaments.selectors import director as select
from tournaments.selectors.scoring import scoring_view
from tournaments.services import Actor, ServiceError, side_pins
from tournaments.services.setup import update_tournament
from tournaments.services.standings import latest
from tournaments.views.director_forms import (
    AffiliationForm,
    CorrectionForm,
    FixTableForm,
    KeepApartForm,
    RegisterEntryForm,
    RulesForm,
    SeedForm,
    SetupForm,
    SwapForm,
    VoidForm,
    WithdrawForm,
    record_for_editing,
)
from tournaments.views.scoring import entry_form_context
from tournaments.words import audit as audit_words
from tournaments.words import pairing as pairing_words

from .access import director_page
from .outcomes import refuse, run

if TYPE_CHECKING:
    pass

AUDIT_PAGE = 50

# -- helpers --------------------------------------------------------------------------------------


def confirmed(request: HttpRequest) -> bool:
    """Did the director confirm this action on the confirmation step?"""
    return request.POST.get("confirm") == "yes"


def ask_first(
    request: HttpRequest,
    tournament: Tournament,
    *,
    title: str,
    question: str,
    button: str,
    cancel: str,
    danger: bool = True,
) -> HttpResponse:
    """The confirmation step of an action that is hard to undo: a page (no script needed)
    that says what will happen and posts the same form again with `confirm=yes`."""
    carried = [
        (key, value)
        for key, values in request.POST.lists()
        if key not in ("csrfmiddlewaretoken", "confirm")
        for value in values
    ]
    return render(
        request,
        "tournaments/director/confirm.html",
        _context(
            tournament,
            "dashboard",
            title=title,
            question=question,
            button=button,
            cancel=cancel,
            carried=carried,
            action=request.path,
            danger=danger,
        ),
    )


def dashboard(tournament: Tournament) -> HttpResponse:
    return redirect("tournaments:director-dashboard", slug=tournament.slug)


def _url(name: str, **kwargs: Any) -> str:
    return reverse(f"tournaments:{name}", kwargs=kwargs)


def links(tournament: Tournament, round_: Round | None) -> dict[str, Any]:
    """Where the director goes next: printing, imports, exports and the public pages."""
    slug = tournament.slug
    printable = round_ is not None and round_.is_public
    at = {"slug": slug, "number": round_.number} if printable and round_ is not None else {}

    def export(subject: str) -> list[tuple[str, str]]:
        return [
            (fmt.upper(), _url("export-table", slug=slug, subject=subject, fmt=fmt))
            for fmt in ("csv", "xlsx", "pdf")
        ]

    return {
        "event_cards": _url("printing-event-cards", slug=slug),
        "cards": _url("printing-cards", **at) if printable else "",
        "sheets": _url("printing-sheets", **at) if printable else "",
        "import_entries": _url("imports-entries", slug=slug),
        "import_hands": _url("imports-hands", slug=slug),
        "exports": export("standings"),
        "results": export("results"),
        "hands": _url("export-hands", slug=slug),
        "archive": _url("export-archive", slug=slug),
        "static_site": _url("staticsite-zip", slug=slug),
        "public": _url("public-tournament", slug=slug),
        "standings": _url("public-standings", slug=slug),
    }


def _context(tournament: Tournament, section: str, **extra: Any) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "section": section,
        "game_name": presentation.game_name(tournament.game),
        "preset_name": presentation.preset_name(
            tournament.game,
            tournament.rules
            if isinstance(tournament.rules, str)
            else tournament.rules.get("preset", ""),
        ),
        **extra,
    }


def _initial_from_post(post: Any) -> dict[str, Any]:
    """A posted setup form as the initial values of a fresh one (for a reload of the rule
    options: the other fields keep what was typed, and no error is shown yet)."""
    initial = {key: post.get(key) for key in post if key not in ("csrfmiddlewaretoken", "reload")}
    if post.get("options_for") != f"{post.get('game')}:{post.get('preset')}":
        initial = {k: v for k, v in initial.items() if not k.startswith("opt_")}
    return initial


def _options(initial: dict[str, Any]) -> dict[str, Any]:
    """House options in a reloaded form's initial values, keyed by option name."""
    return {k[4:]: v for k, v in initial.items() if k.startswith("opt_")}


def _setup_form(
    request: HttpRequest, tournament: Tournament | None, locked: bool = False
) -> tuple[SetupForm, bool]:
    """(form, reloaded): a POST asking for new rule options (the no-JavaScript step, or a
    game/preset changed since the options were shown) comes back unbound with them."""
    post = request.POST
    if (
        request.method == "POST"
        and not locked
        and (
            "reload" in post
            or post.get("options_for") != f"{post.get('game')}:{post.get('preset')}"
        )
    ):
        initial = _initial_from_post(post)
        form = SetupForm(
            tournament=tournament,
            initial=initial,
            game=post.get("game", "spades"),
            preset=post.get("preset", ""),
        )
        kept = _options(initial)
        for name, value in kept.items():
            form.initial[f"opt_{name}"] = value
        for name, field in form.fields.items():  # an unticked box is absent from a POST
            fresh_option = name.startswith("opt_") and not kept
            if isinstance(field, BooleanField) and name not in post and not fresh_option:
                form.initial[name] = False
        return form, True
    if request.method == "POST":
        return SetupForm(post, tournament=tournament, locked=locked), False
    return SetupForm(tournament=tournament, locked=locked), False


# -- home: my tournaments, and a new one ----------------------------------------------------------


def _knockout_form(request: HttpRequest, reloaded: bool) -> KnockoutForm:
    """The new tournament's knockout settings (the knockout page's form, prefixed): a reload
    of the rule options keeps what was chosen, unchecked; a post without them (its section
    hidden, or a client that does not send it) leaves the defaults (an unbound form)."""
    if request.method != "POST" or not any(k.startswith("knockout-") for k in request.POST):
        return KnockoutForm()
    if reloaded:
        posted = KnockoutForm(request.POST)
        return KnockoutForm(initial={name: posted[name].value() for name in posted.fields})
    return KnockoutForm(request.POST, fmt=request.POST.get("format"))


@director_page(of="club")
@require_http_methods(["GET", "POST"])
def director_home(request: HttpRequest) -> HttpResponse:
    """The tournaments I direct (a superuser: all), and the form for a new one: a Swiss (with
    its top cut, if any) or a knockout takes its knockout settings here too, in the same
    service call; another format ignores them."""
    form, reloaded = _setup_form(request, None)
    knockout_form = _knockout_form(request, reloaded)
    if request.method == "POST" and not reloaded and form.is_valid():
        fmt = form.cleaned_data["format"]
        uses = KnockoutForm.uses(fmt) and knockout_form.is_bound
        if not uses or knockout_form.is_valid():
            try:
                tournament = services.create_tournament(
                    actor=Actor(user=request.user, club=current_club(request)),
                    **form.values(),
                    knockout=knockout_form.settings(fmt) if uses else None,
                )
            except ServiceError as error:
                refuse(knockout_form if error.code in SETTING_REFUSALS else form, error)
            else:
                messages.success(request, _("Tournament created. Open registration when ready."))
                return dashboard(tournament)
    status = 400 if request.method == "POST" and not reloaded else 200
    return render(
        request,
        "tournaments/director/home.html",
        {
            "tournaments": select.directed_tournaments(request.user, current_club(request)),
            "form": form,
            "knockout_form": knockout_form,
            "reloaded": reloaded,
        },
        status=status,
    )


@director_page(of="club")
def director_rules_options(request: HttpRequest) -> HttpResponse:
    """The preset list and house options of a game and preset (director.js swaps them in)."""
    game = request.GET.get("game", "spades")
    if game not in presentation.PRESENTATIONS:
        raise Http404("no such game")
    form = RulesForm(game=game, preset=request.GET.get("preset", ""))
    return render(request, "tournaments/director/_rules_fields.html", {"form": form})


# -- a tournament's dashboard ---------------------------------------------------------------------


@director_page
def director_dashboard(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    if tournament.format == Tournament.Format.DUPLICATE:  # its own page (duplicate/views.py)
        return redirect("tournaments:duplicate-director", slug=tournament.slug)
    round_ = select.current_round(tournament)
    rows, byes = select.tables(round_) if round_ else ([], [])
    standings = latest(tournament=tournament)
    return render(
        request,
        "tournaments/director/dashboard.html",
        _context(
            tournament,
            "dashboard",
            round=round_,
            rows=rows,
            byes=byes,
            progress=select.progress(rows),
            rounds=select.rounds(tournament),
            counts=select.entry_counts(tournament),
            queue=list(select.result_queue(tournament)[:50]),
            standings=standings,
            links=links(tournament, round_),
            can_generate=services.can_generate_round(tournament=tournament, latest=round_) is None,
            needs_cut=services.can_generate_round(tournament=tournament, latest=round_)
            == "cut-not-confirmed",
            room=room_context(round_, dashboard=True),
        ),
    )


@director_page
@require_POST
def director_open_registration(
    request: HttpRequest, tournament: Tournament, actor: Actor
) -> HttpResponse:
    run(
        request,
        lambda: services.open_registration(tournament=tournament, actor=actor),
        _("Registration is open."),
    )
    return dashboard(tournament)


@director_page
@require_POST
def director_close_registration(
    request: HttpRequest, tournament: Tournament, actor: Actor
) -> HttpResponse:
    run(
        request,
        lambda: services.close_registration(tournament=tournament, actor=actor),
        _("Registration is closed: only directors enter players now."),
    )
    return dashboard(tournament)


@director_page
@require_http_methods(["GET", "POST"])
def director_finish(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    """Close the event, after a confirmation page (it cannot be undone)."""
    if request.method == "POST":
        if request.POST.get("confirm") != "yes":
            messages.error(request, _("Tick the box to confirm."))
            return redirect("tournaments:director-finish", slug=tournament.slug)
        run(
            request,
            lambda: services.finish_tournament(tournament=tournament, actor=actor),
            _("The tournament is finished. Its results are final."),
        )
        return dashboard(tournament)
    open_rounds = tournament.round_set.exclude(state=Round.State.CLOSED)
    return render(
        request,
        "tournaments/director/finish.html",
        _context(tournament, "dashboard", open_rounds=list(open_rounds)),
    )


@director_page
@require_http_methods(["GET", "POST"])
def director_setup(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    """Edit the setup; what shapes the hands and the draw is read-only once a round is
    published (services.setup says why)."""
    locked = tournament.round_set.public().exists()
    finished = tournament.state == Tournament.State.FINISHED
    form, reloaded = _setup_form(request, tournament, locked=locked)
    if request.method == "POST" and not reloaded and form.is_valid():
        try:
            update_tournament(tournament=tournament, actor=actor, changes=form.values())
        except ServiceError as error:
            refuse(form, error)
        else:
            messages.success(request, _("Setup saved."))
            return redirect("tournaments:director-setup", slug=tournament.slug)
    status = 400 if request.method == "POST" and not reloaded else 200
    return render(
        request,
        "tournaments/director/setup.html",
        _context(
            tournament, "setup", form=form, locked=locked, finished=finished, reloaded=reloaded
        ),
        status=status,
    )


# -- entries --------------------------------------------------------------------------------------


@director_page
@require_http_methods(["GET", "POST"])
def director_entries(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    """Every entry with check-in, withdraw, seed and fixed table; and an entry registered by
    the director (a late entry once rounds are published)."""
    team = tournament.is_team_event
    counts = select.entry_counts(tournament)
    published = tournament.round_set.public().count()
    # At the desk (check-in has begun, or the event is under way) a new entry is here now;
    # before that, checking one in would make round 1 pair the checked-in entries alone.
    form = RegisterEntryForm(
        request.POST or None,
        team=team,
        initial={"checked_in": bool(counts["checked_in"] or published)},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            entry = services.register_entry(
                tournament=tournament,
                actor=actor,
                players=form.players(),
                name=data.get("name", ""),
                seed=data.get("seed"),
                late_entry=data.get("late_entry", ""),
                checked_in=data.get("checked_in", False),
                affiliation=data.get("affiliation", ""),
            )
        except ServiceError as error:
            refuse(form, error)
        else:
            messages.success(request, _("%(name)s is entered.") % {"name": entry.name})
            return redirect("tournaments:director-entries", slug=tournament.slug)
    return render(
        request,
        "tournaments/director/entries.html",
        _context(
            tournament,
            "entries",
            form=form,
            entries=select.entries(tournament),
            counts=counts,
            team=team,
            published=published,
            keep_apart_form=KeepApartForm(entries=_active_entries(tournament)),
            kept_apart=select.kept_apart(tournament),
            rounds_made=tournament.round_set.count(),
        ),
        status=400 if request.method == "POST" else 200,
    )


@director_page
@require_POST
def director_entry_action(
    request: HttpRequest, tournament: Tournament, actor: Actor, entry_id: int, action: str
) -> HttpResponse:
    entry = get_object_or_404(Entry, tournament=tournament, pk=entry_id)
    name = entry.name
    if action == "check-in":
        run(
            request,
            lambda: services.check_in(entry=entry, actor=actor),
            _("%(name)s is checked in.") % {"name": name},
        )
    elif action == "undo-check-in":
        run(
            request,
            lambda: services.undo_check_in(entry=entry, actor=actor),
            _("The check-in of %(name)s is taken back.") % {"name": name},
        )
    elif action == "affiliation":
        form: Form = AffiliationForm(request.POST)
        affiliation = form.cleaned_data["affiliation"] if form.is_valid() else ""
        run(
            request,
            lambda: services.set_affiliation(entry=entry, actor=actor, affiliation=affiliation),
            _("Affiliation of %(name)s saved.") % {"name": name},
        )
    elif action == "withdraw":
        if not confirmed(request):
            return ask_first(
                request,
                tournament,
                title=_("Withdraw %(name)s?") % {"name": name},
                question=_(
                    "%(name)s will not be paired in the next rounds; the results so far "
                    "stay. This is recorded in the audit trail."
                )
                % {"name": name},
                button=_("Yes, withdraw %(name)s") % {"name": name},
                cancel=f"{reverse('tournaments:director-entries', args=[tournament.slug])}"
                f"#entry-{entry.pk}",
            )
        form = WithdrawForm(request.POST)
        reason = form.cleaned_data["reason"] if form.is_valid() else ""
        run(
            request,
            lambda: services.withdraw(entry=entry, actor=actor, reason=reason),
            _("%(name)s is withdrawn.") % {"name": name},
        )
    elif action == "seed":
        form = SeedForm(request.POST)
        if form.is_valid():
            seed = form.cleaned_data["seed"]
            run(
                request,
                lambda: services.set_seed(entry=entry, actor=actor, seed=seed),
                _("Seed of %(name)s saved.") % {"name": name},
            )
        else:
            messages.error(request, _("A seed is a whole number from 1."))
    elif action == "table":
        form = FixTableForm(request.POST)
        if form.is_valid():
            table, reason = form.cleaned_data["table"], form.cleaned_data["reason"]
            run(
                request,
                lambda: services.fix_table(entry=entry, actor=actor, table=table, reason=reason),
                _("Table of %(name)s saved.") % {"name": name},
            )
        else:
            messages.error(request, _("A table number is a whole number from 1."))
    else:
        raise Http404("no such action")
    return redirect(
        f"{reverse('tournaments:director-entries', args=[tournament.slug])}#entry-{entry.pk}"
    )


def _active_entries(tournament: Tournament) -> QuerySet[Entry]:
    return (
        Entry.objects.filter(tournament=tournament)
        .exclude(status=Entry.Status.WITHDRAWN)
        .select_related("team", "player")
        .order_by("team__name", "player__name", "pk")
    )


@director_page
@require_POST
def director_keep_apart(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    """Name two entries the pairings are to keep apart."""
    form = KeepApartForm(request.POST, entries=_active_entries(tournament))
    if form.is_valid():
        first, second = form.cleaned_data["first"], form.cleaned_data["second"]
        run(
            request,
            lambda: services.keep_apart(
                tournament=tournament,
                actor=actor,
                first=first,
                second=second,
                reason=form.cleaned_data["reason"],
            ),
            _("%(first)s and %(second)s are kept apart in the pairings while the draw can.")
            % {"first": first.name, "second": second.name},
        )
    else:
        for error in form.errors.values():
            messages.error(request, " ".join(map(str, error)))
    return redirect(f"{reverse('tournaments:director-entries', args=[tournament.slug])}#apart")


@director_page
@require_POST
def director_allow_together(
    request: HttpRequest, tournament: Tournament, actor: Actor, pair_id: int
) -> HttpResponse:
    pair = get_object_or_404(
        KeepApart.objects.select_related("first", "second", "tournament"),
        tournament=tournament,
        pk=pair_id,
    )
    names = {"first": pair.first.name, "second": pair.second.name}
    run(
        request,
        lambda: services.allow_together(pair=pair, actor=actor),
        _("%(first)s and %(second)s may meet again.") % names,
    )
    return redirect(f"{reverse('tournaments:director-entries', args=[tournament.slug])}#apart")


@director_page
@require_POST
def director_check_in_entries(
    request: HttpRequest, tournament: Tournament, actor: Actor
) -> HttpResponse:
    """The registration desk's "check in the selected": every chosen entry at once."""
    chosen = [int(v) for v in request.POST.getlist("entry") if v.isdigit()]
    if not chosen:
        messages.error(request, _("Choose the entries to check in first."))
    else:
        try:
            done = services.check_in_entries(tournament=tournament, actor=actor, entries=chosen)
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(
                request,
                ngettext(
                    "%(count)s entry checked in.",
                    "%(count)s entries checked in.",
                    len(done),
                )
                % {"count": len(done)},
            )
    return redirect("tournaments:director-entries", slug=tournament.slug)


# -- rounds ---------------------------------------------------------------------------------------


def _round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("tournament"), tournament=tournament, number=number
    )


def _to_round(round_: Round) -> HttpResponse:
    return redirect("tournaments:director-round", slug=round_.tournament.slug, number=round_.number)


@director_page
@require_POST
def director_round_generate(
    request: HttpRequest, tournament: Tournament, actor: Actor
) -> HttpResponse:
    """Pair the next round as a draft (or draw the current draft again)."""
    regenerate = request.POST.get("regenerate") == "1"
    round_ = run(
        request,
        lambda: services.generate_round(tournament=tournament, actor=actor, regenerate=regenerate),
        _("Draft pairings ready: review them, then publish."),
    )
    return _to_round(round_) if round_ else dashboard(tournament)


@director_page
def director_round(
    request: HttpRequest, tournament: Tournament, actor: Actor, number: int
) -> HttpResponse:
    """A round's tables: a draft to review (swap entries, see rematches, publish) or a round in
    play with each table's progress."""
    round_ = _round(tournament, number)
    rows, byes = select.tables(round_)
    draft = round_.state == Round.State.DRAFT
    seated = [seat.entry for row in [*rows, *byes] for side in row.sides for seat in side.seats]
    names = {entry.pk: entry.name for entry in seated}
    # Each rematch is warned about once: the pairing engine's note for it (why it could not be
    # avoided) stands in the rematch list, not beside it as well.
    notes, said = [], {}
    for text in round_.notes or []:
        pair = pairing_words.meeting_again(text)
        if draft and pair is not None:
            said[frozenset(names.get(i, str(i)) for i in pair)] = pairing_words.note(text, names)
        else:
            notes.append(pairing_words.note(text, names))
    rematches = [
        (a, b, said.get(frozenset((a, b)), ""))
        for a, b in (select.rematches(round_) if draft else [])
    ]
    return render(
        request,
        "tournaments/director/round.html",
        _context(
            tournament,
            "rounds",
            round=round_,
            rows=rows,
            byes=byes,
            draft=draft,
            notes=notes,
            progress=select.progress(rows),
            rematches=rematches,
            swap_form=SwapForm(entries=sorted(seated, key=lambda e: e.name)) if draft else None,
            links=links(tournament, round_),
            is_latest=not tournament.round_set.filter(number__gt=number).exists(),
            room=room_context(round_),
        ),
    )


@director_page
@require_POST
def director_round_swap(
    request: HttpRequest, tournament: Tournament, actor: Actor, number: int
) -> HttpResponse:
    round_ = _round(tournament, number)
    form = SwapForm(request.POST, entries=list(tournament.entries.all()))
    if not form.is_valid():
        for error in form.errors.values():
            messages.error(request, " ".join(map(str, error)))
        return _to_round(round_)
    first = tournament.entries.get(pk=form.cleaned_data["first"])
    second = tournament.entries.get(pk=form.cleaned_data["second"])
    run(
        request,
        lambda: services.swap_entries(
            round=round_,
            actor=actor,
            first=first,
            second=second,
            reason=form.cleaned_data["reason"],
        ),
        _("%(first)s and %(second)s swapped places.")
        % {"first": first.name, "second": second.name},
    )
    # A rematch the swap made is warned about on the round page it returns to, once.
    return _to_round(round_)


@director_page
@require_POST
def director_round_publish(
    request: HttpRequest, tournament: Tournament, actor: Actor, number: int
) -> HttpResponse:
    round_ = _round(tournament, number)
    run(
        request,
        lambda: services.publish_round(round=round_, actor=actor),
        _("Round %(n)s is published: the tables can start.") % {"n": number},
    )
    return _to_round(round_)


@director_page
@require_POST
def director_round_close(
    request: HttpRequest, tournament: Tournament, actor: Actor, number: int
) -> HttpResponse:
    round_ = _round(tournament, number)
    if not confirmed(request):
        return ask_first(
            request,
            tournament,
            title=_("Close round %(n)s?") % {"n": number},
            question=_(
                "No more hands can be entered at round %(n)s once it is closed; the "
                "next round can then be paired."
            )
            % {"n": number},
            button=_("Yes, close round %(n)s") % {"n": number},
            cancel=reverse("tournaments:director-round", args=[tournament.slug, number]),
            danger=False,
        )
    run(
        request,
        lambda: services.close_round(round=round_, actor=actor),
        _("Round %(n)s is closed.") % {"n": number},
    )
    return _to_round(round_)


# -- matches and hands ----------------------------------------------------------------------------


def _match(tournament: Tournament, match_id: int) -> Match:
    match = select.match_detail(tournament, match_id)
    if match is None:
        raise Http404("no such match")
    return match


@director_page
def director_match(
    request: HttpRequest, tournament: Tournament, actor: Actor, match_id: int
) -> HttpResponse:
    match = _match(tournament, match_id)
    tokens = (
        list(
            TableToken.objects.filter(table_id=match.played_table.event_table_id).select_related(
                "created_by"
            )
        )
        if match.table_id
        else []
    )
    return render(
        request,
        "tournaments/director/match.html",
        _context(
            tournament,
            "rounds",
            match=match,
            sides=select.match_sides(match),
            hands=select.hand_rows(match),
            tokens=tokens,
            pins=side_pins.pin_troubles([match.pk]).get(match.pk),
            back=request.path,
        ),
    )


@director_page
@require_POST
def director_match_pins_clear(
    request: HttpRequest, tournament: Tournament, actor: Actor, match_id: int
) -> HttpResponse:
    """Forget the wrong PINs typed at this match's table (a locked or struggling table): its
    entries' PINs are tried again at once. In the audit trail."""
    match = _match(tournament, match_id)
    run(
        request,
        lambda: side_pins.clear_pin_failures(match=match, actor=actor),
        _("The wrong PINs of table %(n)s are cleared.") % {"n": match.played_table.number},
    )
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = reverse("tournaments:director-match", args=[tournament.slug, match.pk])
    return redirect(target)


@director_page
@require_POST
def director_token_revoke(
    request: HttpRequest, tournament: Tournament, actor: Actor, match_id: int, token_id: int
) -> HttpResponse:
    """Revoke one of the table's scoring links (a card lost or taken), after a confirmation."""
    match = _match(tournament, match_id)
    token = get_object_or_404(
        TableToken.objects.select_related("table__tournament"),
        pk=token_id,
        table_id=match.table.event_table_id if match.table is not None else None,
    )
    back = reverse("tournaments:director-match", args=[tournament.slug, match.pk])
    number = match.played_table.number
    if not confirmed(request):
        return ask_first(
            request,
            tournament,
            title=_("Revoke this scoring link of table %(n)s?") % {"n": number},
            question=_(
                "A phone that scanned this card can no longer enter or confirm hands at "
                "table %(n)s; print a new card for the table (Table cards)."
            )
            % {"n": number},
            button=_("Yes, revoke the scoring link"),
            cancel=back,
        )
    run(
        request,
        lambda: services.revoke_table_token(token=token, actor=actor),
        _("The scoring link is revoked."),
    )
    return redirect(back)


@director_page
@require_http_methods(["GET", "POST"])
def director_match_finish(
    request: HttpRequest, tournament: Tournament, actor: Actor, match_id: int
) -> HttpResponse:
    """End a match with the complete hands played so far (a director's decision), after a
    confirmation step; a hand still awaiting confirmation (or disputed) is offered there to
    confirm or void instead of a refusal."""
    match = _match(tournament, match_id)
    back = reverse("tournaments:director-match", args=[tournament.slug, match.pk])
    if request.method == "GET" or not confirmed(request):  # the confirmation step
        return render(
            request,
            "tournaments/director/end_match.html",
            _context(
                tournament,
                "rounds",
                match=match,
                sides=select.match_sides(match),
                open_hands=_open_hands(match),
                cancel=back,
                hands=len(services.current_versions(match)),
            ),
        )
    run(
        request,
        lambda: services.finish_match(match=match, actor=actor),
        _("The match is finished."),
    )
    return redirect(back)


def _open_hands(match: Match) -> list[HandSubmission]:
    """The hands that stop a match from ending: awaiting confirmation or disputed."""
    return [
        v
        for v in services.current_versions(match)
        if v.status in (HandSubmission.Status.PENDING, HandSubmission.Status.REJECTED)
    ]


@director_page
@require_http_methods(["GET", "POST"])
def director_hand(
    request: HttpRequest, tournament: Tournament, actor: Actor, match_id: int, number: int
) -> HttpResponse:
    """A hand's versions (the newest first, none ever edited) and a correction: a new
    confirmed version with a reason, later hands re-scored by the service."""
    match = _match(tournament, match_id)
    versions = select.hand_versions(match, number)
    if not versions:
        raise Http404("no such hand")
    current = next((v for v in versions if v.is_current), versions[0])
    if request.method == "POST":
        form = CorrectionForm(request.POST)
        if form.is_valid():
            try:
                services.correct_hand(
                    hand=current.hand,
                    actor=actor,
                    record=form.cleaned_data["record"],
                    reason=form.cleaned_data["reason"],
                    expected_version=form.cleaned_data["version"],
                )
            except ServiceError as error:
                refuse(form, error)
            else:
                messages.success(request, _("Hand %(n)s corrected.") % {"n": number})
                return redirect(
                    "tournaments:director-hand",
                    slug=tournament.slug,
                    match_id=match.pk,
                    number=number,
                )
    else:
        form = CorrectionForm(
            initial={"record": record_for_editing(current.record), "version": current.version}
        )
    later = tournament.round_set.filter(number__gt=match.round.number).exists()
    flagged = select.corrections(tournament, current.hand_id)
    for version in versions:
        # Display attributes for the template, on the page's own instances.
        version.pretty = json.dumps(version.raw, indent=2, ensure_ascii=False)  # type: ignore[attr-defined]
        event = flagged.get(version.version)
        version.flagged = bool(event and event.data.get("after_next_round_paired"))  # type: ignore[attr-defined]
    return render(
        request,
        "tournaments/director/hand.html",
        _context(
            tournament,
            "rounds",
            match=match,
            number=number,
            versions=versions,
            current=current,
            form=form,
            later_round=later,
            sides=select.match_sides(match),
            void_form=VoidForm(initial={"version": current.version}, prefix="void"),
            game=entry_form_context(scoring_view(match.played_table), director=True),
            record=current.record,
            contract=(current.result or {}).get("contract"),
            pins=side_pins.pin_troubles([match.pk]).get(match.pk),
            back=request.path,
        ),
        status=400 if request.method == "POST" else 200,
    )


@director_page
@require_POST
def director_hand_confirm(
    request: HttpRequest, tournament: Tournament, actor: Actor, match_id: int, number: int
) -> HttpResponse:
    """Confirm a pending hand as director (e.g. when the other side has left the table)."""
    match = _match(tournament, match_id)
    submission = get_object_or_404(
        HandSubmission, hand__match=match, hand__number=number, is_current=True
    )
    seen = request.POST.get("version", "")
    run(
        request,
        lambda: services.confirm_hand(
            submission=submission,
            actor=actor,
            expected_version=int(seen) if seen.isdigit() and len(seen) < 6 else None,
        ),
        _("Hand %(n)s confirmed.") % {"n": number},
    )
    return _back(request, tournament, match, number)


def _back(request: HttpRequest, tournament: Tournament, match: Match, number: int) -> HttpResponse:
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = reverse("tournaments:director-hand", args=[tournament.slug, match.pk, number])
    return redirect(target)


@director_page
@require_POST
def director_hand_void(
    request: HttpRequest, tournament: Tournament, actor: Actor, match_id: int, number: int
) -> HttpResponse:
    """Void a pending or disputed hand with a reason: the table enters it again."""
    match = _match(tournament, match_id)
    submission = get_object_or_404(
        HandSubmission, hand__match=match, hand__number=number, is_current=True
    )
    form = VoidForm(request.POST, prefix="void")
    if not form.is_valid():
        messages.error(request, _("Say why the hand is voided."))
    else:
        run(
            request,
            lambda: services.void_hand(
                submission=submission,
                actor=actor,
                reason=form.cleaned_data["reason"],
                expected_version=form.cleaned_data["version"],
            ),
            _("Hand %(n)s is voided: the table enters it again.") % {"n": number},
        )
    return _back(request, tournament, match, number)


# -- the audit trail ------------------------------------------------------------------------------


def _compact(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True) if data else ""


def _chosen_round(request: HttpRequest, rounds: list[int]) -> int | None:
    value = request.GET.get("round", "")
    return int(value) if value.isdigit() and int(value) in rounds else None


@director_page
def director_audit(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    rounds = select.audit_rounds(tournament)
    round_number = _chosen_round(request, rounds)
    kind = request.GET.get("kind", "")
    kind = kind if kind in audit_words.KINDS else ""
    events = select.audit_trail(
        tournament, round_number=round_number, actions=audit_words.KINDS[kind][1] if kind else ()
    )
    page = Paginator(events, AUDIT_PAGE).get_page(request.GET.get("page"))
    names = audit_words.names_for(page)
    for event in page:
        # Display attributes for the template, on the page's own instances.
        event.sentence = audit_words.sentence(event, names)  # type: ignore[attr-defined]
        event.pretty = _compact(event.data)  # type: ignore[attr-defined]
    query = "&".join(
        f"{key}={value}" for key, value in (("round", round_number or ""), ("kind", kind)) if value
    )
    return render(
        request,
        "tournaments/director/audit.html",
        _context(
            tournament,
            "audit",
            page=page,
            rounds=rounds,
            round_number=round_number,
            kind=kind,
            kinds=[(key, label) for key, (label, _actions) in audit_words.KINDS.items()],
            query=query,
        ),
    )


urlpatterns = [
    path("director/", director_home, name="director-home"),
    path("director/new/options/", director_rules_options, name="director-rules-options"),
    path("director/<slug:slug>/", director_dashboard, name="director-dashboard"),
    path(
        "director/<slug:slug>/open/", director_open_registration, name="director-open-registration"
    ),
    path(
        "director/<slug:slug>/close/",
        director_close_registration,
        name="director-close-registration",
    ),
    path("director/<slug:slug>/finish/", director_finish, name="director-finish"),
    path("director/<slug:slug>/setup/", director_setup, name="director-setup"),
    path("director/<slug:slug>/entries/", director_entries, name="director-entries"),
    path(
        "director/<slug:slug>/entries/check-in/",
        director_check_in_entries,
        name="director-check-in-entries",
    ),
    path(
        "director/<slug:slug>/entries/keep-apart/", director_keep_apart, name="director-keep-apart"
    ),
    path(
        "director/<slug:slug>/entries/keep-apart/<int:pair_id>/remove/",
        director_allow_together,
        name="director-allow-together",
    ),
    path(
        "director/<slug:slug>/entries/<int:entry_id>/<str:action>/",
        director_entry_action,
        name="director-entry-action",
    ),
    path(
        "director/<slug:slug>/rounds/generate/",
        director_round_generate,
        name="director-round-generate",
    ),
    path("director/<slug:slug>/rounds/<int:number>/", director_round, name="director-round"),
    path(
        "director/<slug:slug>/rounds/<int:number>/swap/",
        director_round_swap,
        name="director-round-swap",
    ),
    path(
        "director/<slug:slug>/rounds/<int:number>/publish/",
        director_round_publish,
        name="director-round-publish",
    ),
    path(
        "director/<slug:slug>/rounds/<int:number>/close/",
        director_round_close,
        name="director-round-close",
    ),
    path("director/<slug:slug>/matches/<int:match_id>/", director_match, name="director-match"),
    path(
        "director/<slug:slug>/matches/<int:match_id>/pins/clear/",
        director_match_pins_clear,
        name="director-match-pins-clear",
    ),
    path(
        "director/<slug:slug>/matches/<int:match_id>/finish/",
        director_match_finish,
        name="director-match-finish",
    ),
    path(
        "director/<slug:slug>/matches/<int:match_id>/hands/<int:number>/",
        director_hand,
        name="director-hand",
    ),
    path(
        "director/<slug:slug>/matches/<int:match_id>/hands/<int:number>/confirm/",
        director_hand_confirm,
        name="director-hand-confirm",
    ),
    path(
        "director/<slug:slug>/matches/<int:match_id>/tokens/<int:token_id>/revoke/",
        director_token_revoke,
        name="director-token-revoke",
    ),
    path(
        "director/<slug:slug>/matches/<int:match_id>/hands/<int:number>/void/",
        director_hand_void,
        name="director-hand-void",
    ),
    path("director/<slug:slug>/audit/", director_audit, name="director-audit"),
]
