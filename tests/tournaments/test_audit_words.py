"""The audit trail in sentences (tournaments.words.audit): every recorded action reads as a
sentence with names, in English and Japanese, and the trail narrows to a round or a kind."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from tournaments import services
from tournaments.models import AuditEvent, Seat
from tournaments.selectors import director as select
from tournaments.words import audit as audit_words

from .conftest import play_round, tables_of

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def recorded_actions() -> set[str]:
    """Every action the code records: the literals passed as `action=` to `audit`."""
    found = set()
    for path in [*ROOT.joinpath("tournaments").rglob("*.py"), *ROOT.joinpath("api").rglob("*.py")]:
        for line in path.read_text(encoding="utf-8").splitlines():
            if re.search(r"\baction=\"[a-z]", line):
                found |= set(re.findall(r'"([a-z]+(?:-[a-z]+)+)"', line))
    return found


def said(event: AuditEvent) -> str:
    return audit_words.sentence(event, audit_words.names_for([event]))


def test_every_recorded_action_has_a_sentence_and_a_kind():
    actions = recorded_actions()
    assert {"entries-swapped", "hand-corrected", "table-token-created"} <= actions
    assert actions <= set(audit_words.SENTENCES), actions - set(audit_words.SENTENCES)
    kinds = {a for _label, members in audit_words.KINDS.values() for a in members}
    assert set(audit_words.SENTENCES) == kinds


def test_a_swap_names_both_entries_their_tables_and_the_rematch_it_makes(make_tournament, director):
    tournament = make_tournament(teams=4)
    names = dict(
        zip(
            range(1, 5),
            ["Ace Hunters", "Café Spaders", "Nil Whisperers", "Bag Ladies"],
            strict=True,
        )
    )
    for number, entry in enumerate(tournament.entries.order_by("pk"), 1):
        entry.team.name = names[number]
        entry.team.save()
    round_1 = play_round(tournament, director)
    round_2 = services.generate_round(tournament=tournament, actor=director)
    (a, _, _), (b, _, _) = tables_of(round_1)[0]
    table_of = {e: n for n, table in enumerate(tables_of(round_2), 1) for e, _, _ in table}
    a_opponent = next(e for e, n in table_of.items() if n == table_of[a] and e != a)
    first, second = (tournament.entries.get(pk=pk) for pk in (a_opponent, b))

    services.swap_entries(round=round_2, actor=director, first=first, second=second)

    event = AuditEvent.objects.get(action="entries-swapped")
    tables = sorted((table_of[a_opponent], table_of[b]))
    text = said(event)
    assert text.startswith(f"Swapped {first.name} and {second.name} (tables ")
    assert f"tables {table_of[a_opponent]} and {table_of[b]}) in round 2." in text
    assert tables == [1, 2]
    entry_a = tournament.entries.get(pk=a)
    assert entry_a.name in text.split("This makes rematches: ")[1]
    assert not re.search(r"\d{3,}|entries-swapped", text), "no ids, no slugs"
    with translation.override("ja"):
        japanese = said(event)
    assert first.name in japanese and "入れ替え" in japanese and "Swapped" not in japanese


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_action_of_a_played_round_reads_as_a_sentence_without_ids(
    make_tournament, director, language
):
    tournament = make_tournament(teams=4)
    for entry in tournament.entries.all():
        services.check_in(entry=entry, actor=director)
    play_round(tournament, director)
    services.generate_round(tournament=tournament, actor=director)
    events = list(select.audit_trail(tournament))
    names = audit_words.names_for(events)
    with translation.override(language):
        texts = {e.action: audit_words.sentence(e, names) for e in events}
    assert {
        "tournament-created",
        "checked-in",
        "round-generated",
        "round-published",
        "round-closed",
        "match-closed",
    } <= set(texts)
    for action, text in texts.items():
        assert action not in text and "None" not in text and "{" not in text, text
        assert text.rstrip().endswith("." if language == "en" else "。"), text
    checked_in = [audit_words.sentence(e, names) for e in events if e.action == "checked-in"]
    assert len(checked_in) == 4 and all(
        e.name in " ".join(checked_in) for e in tournament.entries.all()
    )


def test_the_trail_narrows_to_a_round_and_to_a_kind(make_tournament, director):
    tournament = make_tournament(teams=4)
    play_round(tournament, director)
    services.generate_round(tournament=tournament, actor=director)

    in_round_1 = select.audit_trail(tournament, round_number=1)
    rounds_kind = select.audit_trail(tournament, actions=audit_words.KINDS["rounds"][1])

    assert {e.action for e in in_round_1} == {
        "round-generated",
        "round-published",
        "match-closed",
        "round-closed",
    }
    assert all(audit_words.round_of(e) == 1 for e in in_round_1)
    assert {e.action for e in rounds_kind} == {"round-generated", "round-published", "round-closed"}
    assert Seat.objects.filter(match__round__number=2).exists()
