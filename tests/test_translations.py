"""The Japanese catalog is complete, keeps every placeholder, is compiled, follows the club's card
terms, and the main pages really render in Japanese (and in English when asked)."""

from __future__ import annotations

import gettext
import io
import json
import re
import struct
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tournaments.demo import club as demo
from tournaments.models import Match, Tournament

PO = Path(settings.BASE_DIR) / "locale" / "ja" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")


# --- a tiny .po reader -------------------------------------------------------------------------


@dataclass
class Entry:
    """One catalog entry as the .po file states it."""

    msgid: str = ""
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    comments: list[str] = field(default_factory=list)
    line: int = 0

    @property
    def label(self) -> str:
        return f"line {self.line}: {self.msgid!r}"


ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
KEYWORD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+"(.*)"$')


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: ESCAPES[m.group(1)], text)


def read_po(path: Path) -> list[Entry]:
    """Entries of a .po file (obsolete #~ entries left out); enough of the format for our own
    catalog, which msgmerge writes."""
    entries: list[Entry] = []
    current: Entry | None = None
    target: tuple[str, int | None] | None = None

    def store(entry: Entry, key: tuple[str, int | None], text: str) -> None:
        name, index = key
        if name == "msgstr":
            while len(entry.msgstr) <= (index or 0):
                entry.msgstr.append("")
            entry.msgstr[index or 0] += text
        else:
            setattr(entry, name, (getattr(entry, name) or "") + text)

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#~"):
            if current is not None and target is not None:
                entries.append(current)
                current, target = None, None
            continue
        if current is None:
            current = Entry(line=number)
        if line.startswith("#,"):
            current.flags |= {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#."):
            current.comments.append(line[2:].strip())
        elif line.startswith("#"):
            continue
        elif match := KEYWORD.match(line):
            name = "msgstr" if match.group(1).startswith("msgstr") else match.group(1)
            index = int(match.group(2)) if match.group(2) else None
            target = (name, index)
            if name != "msgstr":
                setattr(current, name, "")
            store(current, target, _unquote(match.group(3)))
        elif line.startswith('"') and target is not None:
            store(current, target, _unquote(line[1:-1]))
    if current is not None and target is not None:
        entries.append(current)
    return entries


@pytest.fixture(scope="module")
def catalog() -> list[Entry]:
    return read_po(PO)


def messages(catalog: list[Entry]) -> list[Entry]:
    return [entry for entry in catalog if entry.msgid]


# --- the catalog --------------------------------------------------------------------------------


def test_the_reader_sees_the_whole_catalog(catalog):
    header = catalog[0]
    assert header.msgid == "" and "nplurals=1; plural=0;" in header.msgstr[0]
    assert len(messages(catalog)) > 900
    assert len(messages(catalog)) == PO.read_text(encoding="utf-8").count("\nmsgid ") - 1


def test_every_entry_is_translated_and_none_is_fuzzy(catalog):
    untranslated = [e.label for e in messages(catalog) if not e.msgstr or not all(e.msgstr)]
    fuzzy = [e.label for e in catalog if "fuzzy" in e.flags]
    assert untranslated == []
    assert fuzzy == []


def test_japanese_has_one_plural_form(catalog):
    plurals = [e for e in messages(catalog) if e.msgid_plural is not None]
    assert plurals, "the catalog has plural entries"
    assert [e.label for e in plurals if len(e.msgstr) != 1] == []


PYTHON_FORMAT = re.compile(r"%\(\w+\)[sd]")
BRACES = re.compile(r"\{[\w, ]+\}")
TAGS = re.compile(r"</?[a-z][^>]*>")


def placeholders(text: str) -> dict[str, list[str]]:
    return {
        "python-format": sorted(set(PYTHON_FORMAT.findall(text))),
        "braces": sorted(set(BRACES.findall(text))),
        "tags": sorted(TAGS.findall(text)),
    }


def test_every_translation_keeps_the_placeholders_and_markup_of_its_source(catalog):
    """A lost %(name)s breaks the page at render time; a lost {page} breaks the projector's
    script; a lost tag breaks the visually-hidden text. With one plural form the only msgstr
    must say what the plural source says."""
    wrong = []
    for entry in messages(catalog):
        source = entry.msgid_plural if entry.msgid_plural is not None else entry.msgid
        for text in entry.msgstr:
            if placeholders(text) != placeholders(source):
                wrong.append((entry.label, placeholders(source), placeholders(text)))
        if "python-format" in entry.flags:
            # %% first: a template's literal "%(x)s" is written "%%(x)s" (Django doubles the
            # percent signs of template text and restores them after translating).
            stray = re.sub(PYTHON_FORMAT, "", entry.msgstr[0].replace("%%", ""))
            if "%" in stray:
                wrong.append((entry.label, "a bare % in a python-format string"))
    assert wrong == []


def test_the_compiled_catalog_is_the_po_file(catalog):
    """The committed .mo holds exactly the .po's translations (run `make messages` after
    editing the .po): each entry is looked up in it as Django will look it up, and the .mo
    holds no more strings than the .po (its count, the third word of the GNU MO header)."""
    data = MO.read_bytes()
    compiled = gettext.GNUTranslations(io.BytesIO(data))
    order = "<" if data[:4] == b"\xde\x12\x04\x95" else ">"
    (count,) = struct.unpack(f"{order}I", data[8:12])
    wrong = []
    for entry in catalog:
        if entry.msgid == "":  # msgfmt leaves the POT creation date out of the header
            header = entry.msgstr[0].splitlines(keepends=True)
            expected = "".join(h for h in header if not h.startswith("POT-"))
            found = compiled.gettext("")
        elif entry.msgid_plural is not None:
            expected = sorted(set(entry.msgstr))
            forms = (
                compiled.ngettext(entry.msgid, entry.msgid_plural, n)
                if entry.msgctxt is None
                else compiled.npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, n)
                for n in range(200)
            )
            found = sorted(set(forms))
        elif entry.msgctxt is not None:
            expected, found = entry.msgstr[0], compiled.pgettext(entry.msgctxt, entry.msgid)
        else:
            expected, found = entry.msgstr[0], compiled.gettext(entry.msgid)
        if found != expected:
            wrong.append((entry.label, found))
    assert wrong == []
    assert count == len(catalog)


# The club's card words (shared seeds) and the tournament words the pages use throughout.
GLOSSARY = {
    "Nil": "ニル",
    "Double nil": "ダブル・ニル",
    "Double blind nil": "ダブル・ブラインド・ニル",
    "Moon": "ムーン",
    "Blind moon": "ブラインド・ムーン",
    "Solo": "ソロ",
    "Misère": "ミゼール",
    "Abundance": "アバンダンス",
    "Abundance declared": "アバンダンス・デクラレ",
    "Proposal and acceptance": "プロポーズ&アクセプト",
    "Honours": "アナー",
    "Revokes": "リボーク",
    "Trumps": "切札",
    "Trick": "トリック",
    "Dealer": "ディーラー",
    "Director": "ディレクター",
    "Standings": "順位表",
    "Round": "ラウンド",
    "Table": "テーブル",
    "Entry": "エントリー",
    "Pairings": "組み合わせ",
}


def test_card_and_tournament_words_follow_the_glossary(catalog):
    by_id = {e.msgid: e.msgstr[0] for e in messages(catalog) if e.msgctxt is None}
    assert {word: by_id[word] for word in GLOSSARY} == GLOSSARY
    whist_terms = [by_id["Play rubbers"], by_id["Points per revoke"], by_id["Honours score"]]
    assert [
        "ラバー" in whist_terms[0],
        "リボーク" in whist_terms[1],
        "アナー" in whist_terms[2],
    ] == [True, True, True]


def test_translator_notes_naming_a_club_term_are_followed(catalog):
    """Comments such as "Spades bid, ニル in the club's notes." name the seed term to use."""
    named = re.compile(r"(\S+) in the club's notes")
    checked, wrong = 0, []
    for entry in messages(catalog):
        for comment in entry.comments:
            if match := named.search(comment):
                checked += 1
                if match.group(1) not in entry.msgstr[0]:
                    wrong.append((entry.label, match.group(1), entry.msgstr[0]))
    assert checked >= 10
    assert wrong == []


def test_one_word_for_director_throughout(catalog):
    texts = [e.msgstr[0] for e in messages(catalog)]
    assert not any("監督" in text for text in texts)
    assert sum("ディレクター" in text for text in texts) > 15


# --- the pages ----------------------------------------------------------------------------------


class VisibleText(HTMLParser):
    """The words a reader meets: text outside scripts and styles, and the labels screen readers
    announce (aria-label, title, placeholder); the rules engine's notes, marked lang="en" inside
    the page, are left out."""

    SKIP = {"script", "style"}

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.stack: list[tuple[str, bool]] = []

    @property
    def hidden(self) -> bool:
        return any(skip for _, skip in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag not in {"br", "img", "input", "meta", "link", "hr", "source", "col", "wbr"}:
            engine_note = tag != "html" and values.get("lang") == "en"
            self.stack.append((tag, tag in self.SKIP or engine_note))
        if not self.hidden:
            self.parts += [
                values[k] or "" for k in ("aria-label", "title", "placeholder") if k in values
            ]

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def visible(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


@dataclass
class Club:
    spades: Tournament
    match: Match
    client: Client


@pytest.fixture
def club(db, django_capture_on_commit_callbacks, in_process_tasks, built_once) -> Club:
    """A small Spades Swiss from the demo builder: one round closed, the second in play (with a
    pending and a disputed hand), standings computed; the client is the signed-in director.
    Played once per run (`built_once`): these tests read its pages, they do not change it."""

    def play() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            demo.build_spades(teams=6, played=1)

    built_once("translations-spades", play)
    spades = Tournament.objects.get(name="Friday Night Spades")
    match = (
        Match.objects.filter(round__tournament=spades, round__number=1, is_bye=False)
        .order_by("table__number")
        .first()
    )
    client = Client()
    client.force_login(spades.directors.get())
    return Club(spades=spades, match=match, client=client)


def pages(club: Club) -> dict[str, str]:
    slug = club.spades.slug
    playing = (
        Match.objects.filter(round__tournament=club.spades, round__number=2, is_bye=False)
        .order_by("table__number")
        .first()
    )
    return {
        "home": reverse("tournaments:home"),
        "tournament": reverse("tournaments:public-tournament", args=[slug]),
        "standings": reverse("tournaments:public-standings", args=[slug]),
        "round": reverse("tournaments:public-round", args=[slug, 1]),
        "match": reverse("tournaments:public-match", args=[slug, club.match.pk]),
        "table": reverse("tournaments:scoring-table", args=[playing.table_id]),
        "dashboard": reverse("tournaments:director-dashboard", args=[slug]),
        "projector": reverse("tournaments:public-projector", args=[slug]),
    }


# For each page: words that must show in Japanese, and the English they replace. Only interface
# words: the demo's team and player names are English ("Nil Desperandum", "Overtricks").
WORDS = {
    "home": [
        ("開催中", "Playing now"),
        ("終了した大会", "Finished tournaments"),
        ("スペードのランキング", "Spades leaderboard"),
    ],
    "tournament": [
        ("ルール", "The rules"),
        ("マッチポイント", "Match points"),
        ("ニル:1トリックも取らないという宣言です", "a player promises to take no trick"),
        ("リアルタイム順位表", "Live standings"),
    ],
    "standings": [("順位表", "Standings"), ("順位", "Rank")],
    "round": [
        ("ラウンド 1 の組み合わせ", "Round 1 pairings"),
        ("対戦の組み合わせ", "Who plays whom"),
    ],
    "match": [
        ("ハンドごとの経過", "Hand by hand"),
        ("ディーラー", "Dealer"),
        ("累計", "Running total"),
    ],
    "table": [
        ("得点入力コード", "Scoring code"),
        ("ハンドを送信", "Send the hand"),
        ("取ったトリック", "Tricks taken"),
        ("1テーブルの人数", "Players at a table"),
    ],
    "dashboard": [
        ("次の作業", "Next steps"),
        ("結果の処理待ち", "Result queue"),
        ("印刷・インポート・エクスポート", "Print, import, export"),
    ],
    "projector": [
        ("ラウンド 2 の組み合わせ", "Round 2 pairings"),
        ("順位表", "Standings"),
        ("対戦中", "In play"),
    ],
}


def get(client: Client, url: str, language: str) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="en" if language == "ja" else "ja")
    assert response.status_code == 200, url
    html = response.content.decode()
    assert f'<html lang="{language}">' in html, url
    return html


def test_with_the_language_cookie_set_to_japanese_the_main_pages_are_in_japanese(club):
    urls = pages(club)
    assert set(urls) == set(WORDS)
    problems = []
    for name, url in urls.items():
        text = visible(get(club.client, url, "ja"))
        for japanese, english in WORDS[name]:
            if japanese not in text:
                problems.append((name, "missing", japanese))
            if english in text:
                problems.append((name, "still English", english))
    assert problems == []


def test_the_same_pages_are_in_english_when_the_cookie_says_english(club):
    """The check above can fail: the English words are there when English is asked for."""
    problems = []
    for name, url in pages(club).items():
        text = visible(get(club.client, url, "en"))
        for japanese, english in WORDS[name]:
            if english not in text:
                problems.append((name, "missing", english))
            if japanese in text:
                problems.append((name, "Japanese in English", japanese))
    assert problems == []


def test_the_scoring_script_gets_its_strings_in_japanese(club):
    html = get(club.client, pages(club)["table"], "ja")
    found = re.search(
        r'<script id="scoring-strings" type="application/json">(.*?)</script>', html, re.S
    )
    assert found
    strings = json.loads(found.group(1))
    assert strings["score"] == "このハンドの得点"
    assert strings["calls"]["nil"] == "ニル"
    assert strings["calls"]["double-nil"].startswith("ダブル・ニル")
    assert strings["solo"]["misere"] == "ミゼール"
    assert strings["suits"]["S"] == "♠ スペード"
    assert strings["stored"] == "ハンド %(number)s を保存しました。相手側の確認を待っています。"


def test_the_projector_pages_in_japanese(club):
    html = get(club.client, pages(club)["projector"], "ja")
    assert 'data-page-text="{page} / {pages} ページ"' in html
