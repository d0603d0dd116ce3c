"""The duplicate engine's refusals on the Django side (issue 30, finding 10): the services turn
a `DuplicateError` into their refusal with the same stable code, and the API says it in the one
error shape in English or Japanese (the engine's English kept as `details.detail`)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from tests.duplicate.builders import make_event, play_round
from tests.tournaments.builders import make_director
from tournaments.duplicate import services as dup
from tournaments.duplicate.engine import ERROR_CODES, DuplicateError
from tournaments.models import BoardResult
from tournaments.services import Invalid
from tournaments.words.engine import DUPLICATE_MESSAGES, refusal_words

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def test_every_duplicate_engine_code_has_a_sentence():
    assert set(DUPLICATE_MESSAGES) == set(ERROR_CODES)


@pytest.mark.parametrize("code", sorted(set(ERROR_CODES) - {"bad-record"}))
def test_every_duplicate_engine_refusal_reads_in_english_and_japanese(code):
    refusal = dup.engine_error(DuplicateError(code, "the engine's English"))
    assert isinstance(refusal, Invalid) and refusal.code == code
    with translation.override("en"):
        en, details = refusal_words(refusal.code, refusal.message, refusal.details)
    with translation.override("ja"):
        ja, _ = refusal_words(refusal.code, refusal.message, refusal.details)
    assert en != "the engine's English" and not JAPANESE.search(en)
    assert JAPANESE.search(ja) and ja != en
    assert details == {"engine": "duplicate", "detail": "the engine's English"}


def test_the_same_code_from_another_service_keeps_its_own_words():
    """`bad-pair` also refuses keeping an entry apart from itself: not the engine's words."""
    with translation.override("ja"):
        said = refusal_words("bad-pair", "keep apart two different entries", None)
    assert said == ("keep apart two different entries", None)


def damaged(td):
    """A duplicate event, round 1 played and released, whose stored results then have a pair
    twice on board 1 (as a damaged archive could restore)."""
    tournament = make_event(td)
    play_round(tournament, td)
    dup.release_results(tournament=tournament, actor=td, through_round=1)
    first = BoardResult.objects.get(board__number=1, is_current=True)
    other = BoardResult.objects.filter(is_current=True).exclude(match=first.match).first()
    BoardResult.objects.filter(pk=other.pk).update(board=first.board, ew_pair=first.ns_pair)
    return tournament


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ja"])
def test_stored_results_no_evening_can_produce_are_a_refusal_in_the_error_shape(language):
    """The rankings and travellers answer 422 `pair-twice` in the request's language, not a
    server error."""
    tournament = damaged(make_director())
    client = Client(raise_request_exception=False)
    for part in ("rankings", "travellers"):
        response = client.get(
            f"/api/v1/duplicate/{tournament.slug}/{part}", HTTP_ACCEPT_LANGUAGE=language
        )
        assert response.status_code == 422, response.content[:300]
        body = response.json()
        assert set(body) == {"code", "message", "details"}
        assert body["code"] == "pair-twice"
        assert bool(JAPANESE.search(body["message"])) == (language == "ja")
        assert "board 1" in body["details"]["detail"]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_results_pages_say_the_results_cannot_be_compared_and_the_director_page_stays_up(
    language,
):
    td = make_director()
    tournament = damaged(td)
    slug = tournament.slug
    visitor = Client(raise_request_exception=False)
    visitor.cookies["django_language"] = language
    for path in (
        f"/duplicate/{slug}/",
        f"/duplicate/{slug}/boards/1/",
        f"/duplicate/{slug}/pairs/1/",
        f"/duplicate/{slug}/export/csv",
    ):
        response = visitor.get(path)
        assert response.status_code == 422, (path, response.status_code)
        page = response.content.decode()
        assert 'data-code="pair-twice"' in page, path
        assert bool(JAPANESE.search(page.split("<main", 1)[-1])) == (language == "ja"), path
    director = Client(raise_request_exception=False)
    director.cookies["django_language"] = language
    director.force_login(td.user)
    page = director.get(f"/director/{slug}/duplicate/")
    assert page.status_code == 200
    assert 'role="alert" data-code="pair-twice"' in page.content.decode()
