"""A duplicate evening in the tournament archive (`tricktable-archive/1`) and the backups: its
options and movement, numbered pairs, boards with their deals and every version of every board
result survive a backup and a restore, giving the same rankings and the same archive again."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from tests.duplicate.builders import make_event, play_round, played, table_scorer
from tests.tournaments.builders import make_director
from tournaments.duplicate import selectors as select
from tournaments.duplicate import services as dup
from tournaments.exports import archive
from tournaments.models import BoardResult, Tournament
from tournaments.services import backups

pytestmark = pytest.mark.django_db


@pytest.fixture
def td():
    return make_director()


def rankings(tournament: Tournament) -> dict:
    scored = select.scored(tournament, director=True)
    return {name: scored.ranking_rows(name) for name in scored.event.rankings}


def travellers(tournament: Tournament) -> dict:
    scored = select.scored(tournament, director=True)
    return {n: select.traveller_rows(scored, n) for n in sorted(scored.event.travellers)}


def evening(td) -> Tournament:
    """Two rounds played and released, an adjusted board and a result entered again in the
    third, which is still in play (one board awaiting the other side)."""
    tournament = make_event(td, comparison="matchpoints", board_scoring="cga")
    play_round(tournament, td, seed=1)
    play_round(tournament, td, seed=2)
    dup.release_results(tournament=tournament, actor=td, through_round=2)
    round_ = dup.start_round(tournament=tournament, actor=td)
    event = dup.event_of(tournament)
    match = round_.matches.select_related("table", "round").order_by("table__number").first()
    first, second = dup.boards_of(event, 3, match.table.number)
    ns, ew = table_scorer(match, "NS"), table_scorer(match, "EW")
    out = dup.submit_board_result(
        match=match,
        board=first,
        record=played(tournament, first),
        actor=ns,
        idempotency_key="table-1-board-first",
    )
    dup.reject_board_result(result=out.result, actor=ew, expected_version=1, reason="tricks")
    dup.submit_board_result(
        match=match, board=first, record=played(tournament, first, seed=9), actor=ns
    )
    dup.adjust_board_result(
        match=match,
        board=second,
        actor=td,
        ns="average-plus",
        ew="average-minus",
        reason="a fouled board",
    )
    return tournament


def test_a_duplicate_evening_survives_a_backup_and_a_restore(td, tmp_path, settings):
    tournament = evening(td)
    before = {"rankings": rankings(tournament), "travellers": travellers(tournament)}
    versions = list(
        BoardResult.objects.filter(tournament=tournament)
        .order_by("board__number", "round_number", "table_number", "version")
        .values_list("version", "status", "kind", "idempotency_key")
    )
    settings.BACKUP_DIR = str(tmp_path)
    path = backups.write_backup(tournament_id=tournament.pk, reason="round-closed")
    first = json.loads(path.read_text(encoding="utf-8"))
    assert len(first["duplicate"]) == 1 and first["duplicate"][0]["movement"] == "mitchell"
    assert len(first["boards"]) == 6 and all(len(b["hands"]["N"]) == 13 for b in first["boards"])
    assert [r["number"] for r in first["duplicate_pairs"]] == [1, 2, 3, 4, 5, 6]
    assert len(first["board_results"]) == len(versions)
    slug = tournament.slug
    Tournament.objects.filter(pk=tournament.pk).delete()

    call_command("restore_backup", str(tmp_path), stdout=io.StringIO())

    restored = Tournament.objects.get(slug=slug)
    event = dup.event_of(restored)
    assert (event.board_scoring, event.released_round, event.pairs) == ("cga", 2, 6)
    assert rankings(restored) == before["rankings"]
    assert travellers(restored) == before["travellers"]
    assert (
        list(
            BoardResult.objects.filter(tournament=restored)
            .order_by("board__number", "round_number", "table_number", "version")
            .values_list("version", "status", "kind", "idempotency_key")
        )
        == versions
    )
    again = archive.export_archive(restored)
    assert {k: v for k, v in again.items() if k != "exported_at"} == {
        k: v for k, v in first.items() if k != "exported_at"
    }

    # the evening goes on where it stopped: the pending board is confirmed, the round closed
    pending = BoardResult.objects.get(tournament=restored, status="pending")
    match = pending.match
    dup.confirm_board_result(
        result=pending, actor=table_scorer(match, "EW"), expected_version=pending.version
    )
    for m in match.round.matches.exclude(pk=match.pk).select_related("table", "round"):
        for b in dup.boards_of(event, 3, m.table.number):
            out = dup.submit_board_result(
                match=m, board=b, record=played(restored, b), actor=table_scorer(m, "NS")
            )
            dup.confirm_board_result(
                result=out.result, actor=table_scorer(m, "EW"), expected_version=out.result.version
            )
    dup.close_duplicate_round(round=match.round, actor=td)
    dup.finish_duplicate(tournament=restored, actor=td)
    assert set(rankings(restored)) == {"NS", "EW"}


def test_an_archive_of_another_format_has_no_duplicate_lists(td):
    from tests.tournaments.builders import make_match

    document = archive.export_archive(make_match(td).round.tournament)
    assert not {"duplicate", "boards", "board_results", "duplicate_pairs"} & set(document)


def test_a_board_results_idempotency_key_already_held_refuses_the_restore(td):
    tournament = evening(td)
    document = json.loads(archive.dumps(archive.export_archive(tournament)))
    document["tournament"]["slug"] = "another-slug"
    with pytest.raises(archive.AlreadyHeld) as held:
        archive.restore(archive=document)
    assert held.value.code == "idempotency-key-taken"
    assert not Tournament.objects.filter(slug="another-slug").exists()
