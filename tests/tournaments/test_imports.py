"""Bulk entry from CSV and XLSX files: parsing, row errors with stable codes, and an import that
writes every row or none."""

from __future__ import annotations

import io

import pytest

from tournaments import services
from tournaments.models import AuditEvent, Entry, Player, Team
from tournaments.services import EntriesPreview, ServiceError, import_entries, parse_entries
from tournaments.services.imports import MAX_BYTES, MAX_ROWS

pytestmark = pytest.mark.django_db


def csv_bytes(*lines: str, bom: bool = False) -> bytes:
    data = ("\r\n".join(lines) + "\r\n").encode()
    return b"\xef\xbb\xbf" + data if bom else data


def xlsx_bytes(*rows: list) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def codes(preview: EntriesPreview) -> list[tuple[int | None, str]]:
    return [(error.row, error.code) for error in preview.all_errors]


def teams(data: bytes, filename: str = "entries.csv") -> EntriesPreview:
    return parse_entries(data, filename=filename, team_event=True)


def players(data: bytes, filename: str = "entries.csv") -> EntriesPreview:
    return parse_entries(data, filename=filename, team_event=False)


# -- parsing ---------------------------------------------------------------------------------


def test_parse_reads_a_team_csv_with_english_headers():
    preview = teams(
        csv_bytes(
            "team,player1,club1,player2,club2,seed",
            "Spade Aces,Aiko Tanaka,0042,Ben Ito,,1",
            ",Chie,,Dai,77,",
        )
    )

    assert preview.ok
    assert [row.row for row in preview.rows] == [2, 3]
    first, second = preview.rows
    assert first.team == "Spade Aces"
    assert [(p.name, p.club_number) for p in first.players] == [
        ("Aiko Tanaka", "0042"),
        ("Ben Ito", ""),
    ]
    assert first.seed == 1
    assert second.team == ""
    assert [(p.name, p.club_number) for p in second.players] == [("Chie", ""), ("Dai", "77")]
    assert second.seed is None


def test_parse_accepts_japanese_headers_and_a_byte_order_mark():
    preview = teams(
        csv_bytes(
            "チーム,プレイヤー1,プレイヤー2,シード",
            "スペードの会,田中 愛子,伊藤 勉,2",
            bom=True,
        )
    )

    assert preview.ok
    [row] = preview.rows
    assert row.team == "スペードの会"
    assert [p.name for p in row.players] == ["田中 愛子", "伊藤 勉"]
    assert row.seed == 2


def test_parse_matches_headers_ignoring_case_spaces_and_full_width_digits():
    preview = teams(csv_bytes(" Team ,PLAYER 1,Player2,ＳＥＥＤ", "T,A,B,3"))
    japanese = teams(csv_bytes("プレイヤー１,プレイヤー２", "甲,乙"))

    assert preview.ok and japanese.ok
    assert preview.rows[0].seed == 3
    assert [p.name for p in japanese.rows[0].players] == ["甲", "乙"]


def test_parse_strips_cells_and_collapses_spaces():
    preview = teams(
        csv_bytes("player1,player2,team", '  Aiko   Tanaka ,"Ben\u3000 Ito",  The   Aces ')
    )

    [row] = preview.rows
    assert [p.name for p in row.players] == ["Aiko Tanaka", "Ben Ito"]
    assert row.team == "The Aces"


def test_parse_ignores_unknown_columns_and_blank_rows_keeping_row_numbers():
    preview = teams(csv_bytes("player1,player2,notes", "A,B,vegetarian", ",,", "C,D,"))

    assert preview.ok
    assert [row.row for row in preview.rows] == [2, 4]


def test_parse_reads_an_individual_event_with_player_and_club():
    preview = players(csv_bytes("Player,Club", "Aiko,0042", "Ben,"))

    assert preview.ok
    assert [(r.players[0].name, r.players[0].club_number) for r in preview.rows] == [
        ("Aiko", "0042"),
        ("Ben", ""),
    ]


def test_parse_accepts_player1_for_an_individual_event():
    preview = players(csv_bytes("player1,club1", "Aiko,9"))

    assert preview.ok
    assert preview.rows[0].players[0].club_number == "9"


def test_parse_reads_tab_separated_text():
    preview = teams(csv_bytes("player1\tplayer2", "Aiko\tBen"), filename="entries.tsv")

    assert preview.ok
    assert [p.name for p in preview.rows[0].players] == ["Aiko", "Ben"]


def test_parse_reads_an_xlsx_file_with_numbers_as_text():
    data = xlsx_bytes(
        ["Team", "Player1", "Club1", "Player2", "Club2", "Seed"],
        ["Aces", "Aiko", 42, "Ben", None, 3],
        [None, None, None, None, None, None],
        ["Kings", "  Chie  ", None, "Dai", "0077", 4.0],
    )

    preview = teams(data, filename="ENTRIES.XLSX")

    assert preview.ok, codes(preview)
    assert [row.row for row in preview.rows] == [2, 4]
    assert preview.rows[0].players[0].club_number == "42"
    assert preview.rows[0].seed == 3
    assert preview.rows[1].players[0].name == "Chie"
    assert preview.rows[1].players[1].club_number == "0077"
    assert preview.rows[1].seed == 4


def test_parse_reads_an_xlsx_file_with_japanese_headers():
    data = xlsx_bytes(["プレイヤー", "シード"], ["田中 愛子", 1], ["伊藤 勉", 2])

    preview = players(data, filename="参加者.xlsx")

    assert preview.ok
    assert [(r.players[0].name, r.seed) for r in preview.rows] == [("田中 愛子", 1), ("伊藤 勉", 2)]


# -- row errors ------------------------------------------------------------------------------


def test_a_row_without_a_player_is_a_missing_player_error():
    preview = teams(csv_bytes("player1,player2", "Aiko,", ",Ben", "Chie,Dai"))

    assert not preview.ok
    assert codes(preview) == [(2, "missing-player"), (3, "missing-player")]
    assert preview.error_rows == [2, 3]
    assert preview.all_errors[0].column == "player2"


def test_a_club_number_without_a_player_is_its_own_error():
    preview = teams(csv_bytes("player1,club1,player2", ",12,Ben"))

    assert codes(preview) == [(2, "club-without-player")]


def test_a_player_in_two_rows_is_a_duplicate_in_the_file():
    preview = teams(csv_bytes("player1,player2", "Aiko,Ben", "Chie,AIKO", "Dai,Eri"))

    assert codes(preview) == [(3, "duplicate-in-file")]
    assert "row 2" in preview.all_errors[0].message


def test_a_club_number_in_two_rows_is_a_duplicate_in_the_file():
    preview = teams(csv_bytes("player1,club1,player2,club2", "Aiko,1,Ben,2", "A. Tanaka,1,Chie,3"))

    assert codes(preview) == [(3, "duplicate-in-file")]


def test_a_repeated_seed_or_team_name_is_a_duplicate_in_the_file():
    preview = teams(csv_bytes("team,player1,player2,seed", "X,A,B,1", "x,C,D,2", "Y,E,F,1"))

    assert codes(preview) == [(3, "duplicate-in-file"), (4, "duplicate-in-file")]
    assert {e.column for e in preview.all_errors} == {"team", "seed"}


def test_a_team_of_one_player_twice_is_refused_in_the_file():
    preview = teams(csv_bytes("player1,player2", "Aiko,aiko"))

    assert codes(preview) == [(2, "same-player")]


@pytest.mark.parametrize("seed", ["abc", "0", "-1", "1.5", "２x"])
def test_a_seed_that_is_not_a_positive_whole_number_is_a_bad_seed(seed):
    preview = teams(csv_bytes("player1,player2,seed", f"Aiko,Ben,{seed}"))

    assert codes(preview) == [(2, "bad-seed")]


def test_a_full_width_seed_is_read_as_a_number():
    preview = teams(csv_bytes("player1,player2,seed", "Aiko,Ben,１２"))

    assert preview.rows[0].seed == 12


def test_a_name_longer_than_a_player_name_may_be_is_too_long():
    preview = teams(csv_bytes("player1,club1,player2", f"{'x' * 101},,Ben", f"Chie,{'9' * 31},Dai"))

    assert codes(preview) == [(2, "too-long"), (3, "too-long")]


# -- file errors -----------------------------------------------------------------------------


def test_more_rows_than_the_limit_is_too_many_rows():
    lines = ["player1,player2", *(f"A{n},B{n}" for n in range(MAX_ROWS + 1))]

    preview = teams(csv_bytes(*lines))

    assert codes(preview) == [(None, "too-many-rows")]
    assert preview.rows == []


def test_exactly_the_row_limit_is_accepted():
    lines = ["player1,player2", *(f"A{n},B{n}" for n in range(MAX_ROWS))]

    preview = teams(csv_bytes(*lines))

    assert preview.ok
    assert len(preview.rows) == MAX_ROWS


def test_a_file_over_the_size_limit_is_too_large():
    data = csv_bytes("player1,player2", "A,B") + b" " * MAX_BYTES

    assert codes(teams(data)) == [(None, "too-large")]


@pytest.mark.parametrize(
    ("data", "filename"),
    [
        ("player1,player2\nAiko,Bén\n".encode("cp932", errors="replace") + b"\xff\xfe", "a.csv"),
        ("プレイヤー1,プレイヤー2\n愛子,勉\n".encode("shift_jis"), "a.csv"),
        (b"not a zip file at all", "entries.xlsx"),
        (b"\xd0\xcf\x11\xe0 an old binary workbook", "entries.xls"),
        (b"", "entries.csv"),
        (b"player1,player2\x00\nA,B\n", "entries.csv"),
    ],
    ids=["not-utf8", "shift-jis", "bad-xlsx", "xls", "empty", "nul"],
)
def test_an_unreadable_file_is_a_bad_file(data, filename):
    preview = teams(data, filename=filename)

    assert codes(preview) == [(None, "bad-file")]
    assert not preview.ok


def test_a_header_without_the_player_columns_is_a_bad_header():
    assert codes(teams(csv_bytes("team,player1", "X,Aiko"))) == [(None, "bad-header")]
    assert codes(players(csv_bytes("team,club", "X,1"))) == [(None, "bad-header")]


def test_a_column_named_twice_is_a_bad_header():
    preview = teams(csv_bytes("player1,player2,プレイヤー1", "A,B,C"))

    assert codes(preview) == [(None, "bad-header")]


def test_a_header_without_rows_is_no_rows():
    assert codes(teams(csv_bytes("player1,player2"))) == [(None, "no-rows")]


# -- importing -------------------------------------------------------------------------------


def test_import_registers_every_row(make_tournament, director):
    known = Player.objects.create(name="Aiko Tanaka", club_number="0042")
    tournament = make_tournament(open_=False)
    data = csv_bytes(
        "team,player1,club1,player2,seed",
        "Spade Aces,A. Tanaka,0042,Ben Ito,1",
        ",Chie,,Dai,2",
    )

    preview = import_entries(
        tournament=tournament, actor=director, data=data, filename="entries.csv"
    )

    assert preview.ok and preview.imported
    made = list(Entry.objects.filter(tournament=tournament).order_by("id"))
    assert [e.pk for e in made] == preview.created
    assert [(e.name, e.seed) for e in made] == [("Spade Aces", 1), ("Chie & Dai", 2)]
    assert made[0].team.first_id == known.pk
    [event] = AuditEvent.objects.filter(tournament=tournament, action="entries-imported")
    assert event.data == {"rows": 2, "entries": preview.created}
    assert event.subject == "entries.csv"


def test_import_of_an_xlsx_file_into_an_individual_event(make_tournament, director):
    tournament = make_tournament(game="solo-whist", rules="phillips", format="individual")
    data = xlsx_bytes(["プレイヤー", "会員番号"], ["田中 愛子", 1001], ["伊藤 勉", None])

    preview = import_entries(tournament=tournament, actor=director, data=data, filename="p.xlsx")

    assert preview.imported
    assert sorted(e.player.name for e in tournament.entries.all()) == ["伊藤 勉", "田中 愛子"]
    assert Player.objects.get(club_number="1001").name == "田中 愛子"


def test_import_with_a_bad_row_writes_nothing(make_tournament, director):
    tournament = make_tournament()
    data = csv_bytes("player1,player2,seed", "Aiko,Ben,1", "Chie,,2", "Dai,Eri,x")

    preview = import_entries(tournament=tournament, actor=director, data=data, filename="e.csv")

    assert not preview.imported
    assert preview.error_rows == [3, 4]
    assert codes(preview) == [(3, "missing-player"), (4, "bad-seed")]
    assert not tournament.entries.exists()
    assert not Player.objects.exists()


def test_import_refused_by_registration_reports_the_row_and_writes_nothing(
    make_tournament, director
):
    tournament = make_tournament()
    services.register_entry(tournament=tournament, actor=director, players=["Chie", "Dai"], seed=5)
    data = csv_bytes("player1,player2,seed", "Aiko,Ben,1", "Eri,chie,", "Fumi,Goro,5")

    preview = import_entries(tournament=tournament, actor=director, data=data, filename="e.csv")

    assert not preview.imported
    assert codes(preview) == [(3, "already-entered"), (4, "seed-taken")]
    assert preview.created == []
    assert tournament.entries.count() == 1
    assert not Player.objects.filter(name__in=["Aiko", "Ben", "Eri", "Fumi", "Goro"]).exists()
    assert not AuditEvent.objects.filter(tournament=tournament, action="entries-imported").exists()


def test_the_preview_reports_an_entered_player_beside_rows_that_fail_to_parse(
    make_tournament, director
):
    tournament = make_tournament()
    services.register_entry(tournament=tournament, actor=director, players=["Chie", "Dai"])
    data = csv_bytes("player1,player2,seed", "Aiko,Ben,x", "Eri,chie,", "Fumi,,3")

    preview = import_entries(tournament=tournament, actor=director, data=data, filename="e.csv")

    assert not preview.imported
    assert codes(preview) == [(2, "bad-seed"), (3, "already-entered"), (4, "missing-player")]
    assert tournament.entries.count() == 1
    assert not Player.objects.filter(name__in=["Aiko", "Ben", "Eri", "Fumi"]).exists()


def test_a_dry_run_checks_every_row_but_writes_nothing(make_tournament, director):
    tournament = make_tournament()
    data = csv_bytes("player1,player2", "Aiko,Ben", "Chie,Dai")

    preview = import_entries(
        tournament=tournament, actor=director, data=data, filename="e.csv", dry_run=True
    )

    assert preview.ok
    assert preview.dry_run and not preview.imported
    assert preview.created == []
    assert not tournament.entries.exists()
    assert not Player.objects.exists()
    assert not Team.objects.exists()


def test_a_dry_run_reports_what_registration_would_refuse(make_tournament, director):
    tournament = make_tournament()
    services.register_entry(tournament=tournament, actor=director, players=["Aiko", "Ben"])
    data = csv_bytes("player1,player2", "aiko,Chie")

    preview = import_entries(
        tournament=tournament, actor=director, data=data, filename="e.csv", dry_run=True
    )

    assert codes(preview) == [(2, "already-entered")]
    assert tournament.entries.count() == 1


def test_import_with_a_duplicate_in_the_file_writes_nothing(make_tournament, director):
    tournament = make_tournament()
    data = csv_bytes("player1,player2", "Aiko,Ben", "Ben,Chie")

    preview = import_entries(tournament=tournament, actor=director, data=data, filename="e.csv")

    assert codes(preview) == [(3, "duplicate-in-file")]
    assert not tournament.entries.exists()


def test_import_is_for_directors_only(make_tournament, stranger):
    tournament = make_tournament()

    with pytest.raises(ServiceError) as caught:
        import_entries(
            tournament=tournament,
            actor=stranger,
            data=csv_bytes("player1,player2", "Aiko,Ben"),
            filename="e.csv",
        )

    assert caught.value.code == "not-director"
    assert not tournament.entries.exists()


def test_the_preview_serialises_rows_and_errors(make_tournament, director):
    tournament = make_tournament()
    data = csv_bytes("player1,player2", "Aiko,")

    body = import_entries(
        tournament=tournament, actor=director, data=data, filename="e.csv"
    ).as_dict()

    assert body["ok"] is False
    assert body["imported"] is False
    assert body["rows"][0]["errors"][0]["code"] == "missing-player"
    assert body["rows"][0]["players"][0] == {"name": "Aiko", "club_number": ""}
