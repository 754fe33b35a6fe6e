"""The dashboard's pages: Serbian by default, English on request, the table's facts shown."""

from __future__ import annotations

import re
import string

import pytest
from fastapi.testclient import TestClient

from kibic.runtime import TableRuntime
from referee.cards import Card
from tests.test_web_support import (
    NAMES,
    PASSWORD_HASH,
    illegal_play,
    legal_play,
    play_trick,
)
from tests.test_web_support import client as client  # noqa: F401 - the fixture
from tests.test_web_support import runtime as runtime  # noqa: F401 - the fixture
from web.app import create_app
from web.cards import card_svg
from web.i18n import STRINGS, t


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_both_languages_have_every_string_with_the_same_fields() -> None:
    assert set(STRINGS["sr"]) == set(STRINGS["en"])
    for key, text in STRINGS["sr"].items():
        assert _fields(text) == _fields(STRINGS["en"][key]), key


def test_unknown_language_falls_back_to_serbian() -> None:
    assert t("de", "trick") == "Štih"


def test_game_terms_in_serbian(client: TestClient, runtime: TableRuntime) -> None:  # noqa: F811
    revoke_in_a_finished_deal(runtime)
    pages = " ".join(client.get(p).text for p in ("/", "/history", "/summary")).lower()
    for term in ("štih", "adut", "džoker-boja", "zvanje", "partija", "meč", "kazna", "prekršaj",
                 "dokaz"):  # fmt: skip
        assert term in pages, term


def test_table_page_serbian(client: TestClient, runtime: TableRuntime) -> None:  # noqa: F811
    action = legal_play(runtime)
    runtime.submit(action)
    html = client.get("/").text
    assert '<html lang="sr">' in html
    for name in NAMES:
        assert name in html
    assert "Tekući štih: Štih 1" in html
    assert f'data-card="{action.card}"' in html  # the card's picture
    assert '<span id="to-act">Bora</span>' in html  # seat 1 plays next
    assert 'id="trump"><span class="suit red">♥</span> herc' in html
    assert 'id="joker-suit"><span class="suit red">♦</span> karo' in html
    assert "zatvoreno" in html
    assert "Tabela rezultata" in html and "Strana A" in html and "Strana B" in html


def test_table_page_english(client: TestClient) -> None:
    html = client.get("/", params={"lang": "en"}).text
    assert '<html lang="en">' in html
    assert "Current trick: Trick 1" in html
    assert "Trump (adut)" in html and "Joker suit (džoker-boja)" in html
    assert "Score sheet" in html and "Tabela rezultata" not in html
    assert 'href="/?lang=sr"' in html  # the switch back


def test_default_language_can_be_english(runtime: TableRuntime) -> None:  # noqa: F811
    with TestClient(create_app(runtime, admin_password_hash=PASSWORD_HASH, language="en")) as c:
        assert '<html lang="en">' in c.get("/").text
        assert '<html lang="sr">' in c.get("/?lang=sr").text


def test_create_app_refuses_an_unknown_language(runtime: TableRuntime) -> None:  # noqa: F811
    with pytest.raises(ValueError, match="language must be one of sr, en"):
        create_app(runtime, admin_password_hash=PASSWORD_HASH, language="de")


def test_score_sheet_has_a_row_per_deal_and_running_totals(
    client: TestClient,
    runtime: TableRuntime,  # noqa: F811
) -> None:
    for _ in range(13):
        play_trick(runtime)
    runtime.adjust_score("A", 15, "kasnio")
    match = runtime.snapshot()["match"]
    html = client.get("/").text
    sheet = html[html.index('id="score-sheet"') : html.index("</table>", html.index("score-sheet"))]
    assert sheet.count('class="deal-row"') == 2  # the deal and the correction
    assert "Partija 1" in sheet
    assert "ispravka sudije: kasnio" in sheet
    for side in ("A", "B"):
        total = f'<td class="num total" data-side="{side}">{match["totals"][side]}'
        assert total in sheet.split("<tfoot>")[1]
    # the partije won, each side named with its players
    assert ('Dobijene partije: <span data-side="A">Strana A (Ana &amp; Ceca): 0</span> · '
            '<span data-side="B">Strana B (Bora &amp; Duško): 0</span>') in html  # fmt: skip


def revoke_in_a_finished_deal(runtime: TableRuntime) -> None:  # noqa: F811
    action = illegal_play(runtime)
    while action is None:
        runtime.submit(legal_play(runtime))
        action = illegal_play(runtime)
    runtime.submit(action)


def test_penalty_is_shown_with_its_evidence(client: TestClient, runtime: TableRuntime) -> None:  # noqa: F811
    revoke_in_a_finished_deal(runtime)
    violation = runtime.snapshot()["deals"][0]["violations"][0]
    for path in ("/", "/history"):
        html = client.get(path).text
        assert f'class="violation" data-rule="{violation["rule"]}"' in html
        assert "Dokaz:" in html and "(poznata ruka)" in html  # the evidence in Serbian
        assert "(known hand)" not in html
        assert "Kazna:</b> Strana A" in html
    english = client.get("/", params={"lang": "en"}).text
    assert "Evidence (dokaz):" in english and "(known hand)" in english


def test_history_and_summary(client: TestClient, runtime: TableRuntime) -> None:  # noqa: F811
    assert "Još nijedno završeno deljenje." in client.get("/history").text
    for _ in range(13):
        play_trick(runtime)
    history = client.get("/history").text
    assert 'class="deal-record" data-number="1"' in history and "Deljenje 1" in history
    summary = client.get("/summary").text
    assert "Odigrana deljenja: 1" in summary
    assert 'href="/api/export/csv"' in summary
    assert "Match summary" in client.get("/summary?lang=en").text


def test_names_are_escaped(runtime: TableRuntime) -> None:  # noqa: F811
    runtime.start_game("veliki-satir", names=["<script>x</script>", "B", "C", "D"])
    with TestClient(create_app(runtime, admin_password_hash=PASSWORD_HASH)) as c:
        html = c.get("/").text
    assert "<script>x</script>" not in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html


def test_card_pictures_are_inline_svg() -> None:
    svg = card_svg("QH")
    assert svg.startswith('<svg class="card" data-card="QH"')
    assert "♥" in svg and "#c0182a" in svg  # red
    assert "http" not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert 'data-card="JK"' in card_svg("JK")


def test_camera_alert_shows_in_the_live_part(client: TestClient, runtime: TableRuntime) -> None:  # noqa: F811
    before = client.get("/partials/table").text
    assert 'id="alerts"' not in before
    runtime.on_sighting(3, Card.parse("AS"))  # out of turn: an alert, not a play
    after = client.get("/partials/table").text  # same seq, yet not the cached part
    # in Serbian, the seat named by its player
    assert 'id="alerts"' in after and "kamera: mesto 3 (Duško) A♠:" in after
    assert "Upozorenja" in after
    assert "camera: seat 3 (Duško) A♠:" in client.get("/partials/table?lang=en").text


def test_camera_status_shows_in_the_live_part(client: TestClient, runtime: TableRuntime) -> None:  # noqa: F811
    """No camera, no line; a camera's calibration and how much of the deck it knows show at
    once (same seq, yet not the cached part) and in /api/state."""
    assert 'id="camera-status"' not in client.get("/partials/table").text
    assert client.get("/api/state").json()["camera"] is None
    status = {"source": "camera:0", "deck": "piquet-32", "calibrated": False,
              "profile": {"enrolled": 0, "of": 32, "learnt": 0, "saved": False}}  # fmt: skip
    runtime.set_camera_status(status)
    waiting = client.get("/partials/table?lang=en").text
    assert ('<p id="camera-status">Waiting for the mat&#x27;s markers · deck piquet-32 · deck not '
            "learnt yet (kibic vision enrol, or only the court cards: --courts) · what it learns is not kept (no camera.deck_profile)"
            "</p>") in waiting  # fmt: skip
    runtime.set_camera_status({**status, "calibrated": True,
                               "profile": {"enrolled": 30, "of": 32, "learnt": 3, "saved": True}})  # fmt: skip
    ready = client.get("/partials/table").text
    assert ('<p id="camera-status">Sto je kalibrisan · špil piquet-32 · naučeno 30 od 32 karte '
            "(3 iz potvrda za stolom)</p>") in ready  # fmt: skip
    assert client.get("/api/state").json()["camera"]["profile"] == {
        "enrolled": 30, "of": 32, "learnt": 3, "saved": True}  # fmt: skip


def test_a_stopped_camera_says_why_in_both_languages(
    client: TestClient, runtime: TableRuntime
) -> None:  # noqa: F811
    runtime.set_camera_status({"source": "camera:0", "deck": "piquet-32", "calibrated": True,
                               "profile": None, "stopped": "camera:0: cannot open video source 0"})  # fmt: skip
    english = client.get("/partials/table?lang=en").text
    assert ('<p id="camera-status">No frames from the camera (camera:0: cannot open video source '
            "0); cards are entered by hand · deck piquet-32</p>") in english  # fmt: skip
    assert "Kamera ne daje slike (camera:0: cannot open video source 0); karte se unose ručno" in (
        client.get("/partials/table").text
    )
    assert client.get("/api/state").json()["camera"]["stopped"] == (
        "camera:0: cannot open video source 0"
    )


def test_an_ask_names_the_profile_card(client: TestClient, runtime: TableRuntime) -> None:  # noqa: F811
    """A request the camera made because the deck profile disagreed says which card the
    profile saw, in either language, and /api/state carries it; a plain request says nothing."""
    plain = runtime.request_confirmation(0, [Card.parse("AS"), Card.parse("AC")], [0.6, 0.4])
    runtime.request_confirmation(1, [Card.parse("5C"), Card.parse("4C")], [0.997, 0.003],
                                 Card.parse("4C"))  # fmt: skip
    pending = client.get("/api/state").json()["pending"]
    assert [(p["seat"], p["profile_card"]) for p in pending] == [(0, None), (1, "4C")]
    english = client.get("/partials/table?lang=en").text
    assert english.count("this deck&#x27;s enrolled cards look more like") == 1
    line = english.split(f'data-request="{plain}"')[1].split("</li>")[0]
    assert "look more like" not in line
    assert "karte ovog špila više liče na" in client.get("/partials/table").text


def test_a_gin_discard_shows_its_card_and_a_stock_draw_none() -> None:
    from kibic.demo import demo_runtime

    table = demo_runtime(game="gin-rummy", deals=1, plays=12, seed=3)
    html = TestClient(create_app(table, admin_password_hash="")).get("/?lang=en").text
    items = re.findall(r'<li data-kind="([a-z_]+)">([^<]*)</li>', html.split('id="log">')[1])
    discards = [text for kind, text in items if kind == "action" and ": discards" in text]
    # each discard names its card, face up: "Bora: discards 3♠"
    assert discards and all(re.fullmatch(r"(Ana|Bora): discards (10|[2-9AJQK])[♠♥♦♣]", text)
                            for text in discards), discards  # fmt: skip
    picked = [text for kind, text in items if kind == "card_picked_up"]
    # the stock's card unseen; the discard pile's top named (Ana takes the 7♣ Bora threw)
    assert "Bora picks up face down" in picked and "Ana picks up 7♣" in picked
    assert all(re.fullmatch(r"(Ana|Bora) picks up (face down|(10|[2-9AJQK])[♠♥♦♣])", text)
               for text in picked), picked  # fmt: skip
    assert "None" not in html
    table.close()


def test_gin_shows_the_discard_piles_top_the_stock_and_the_cards_known_in_hand() -> None:
    from kibic.demo import demo_runtime

    table = demo_runtime(game="gin-rummy", deals=1, plays=12, seed=3)
    deal = table.snapshot()["deal"]
    top, stock, known = deal["discard_pile"][-1], deal["stock_left"], deal["public_in_hand"]
    client = TestClient(create_app(table, admin_password_hash=""))
    tv = client.get("/table?lang=en").text
    assert f'id="tv-pile" data-card="{top}"><span>Top of the discard pile</span>' in tv
    assert f"<dt>Cards left in the stock</dt><dd>{stock}</dd>" in tv
    page = client.get("/?lang=en").text
    assert f'<dd id="stock-left">{stock}</dd>' in page
    assert f"({len(deal['discard_pile'])} discarded)" in page
    listed = page.split("Taken from the discards, in hand")[1].split("</ul>")[0]
    for seat, cards in known.items():
        assert cards and all(f'data-card="{c}"' in listed for c in cards), seat
    table.close()


def test_a_score_correction_says_what_it_counts_and_whose_side(
    client: TestClient,  # noqa: F811
) -> None:
    from kibic.demo import demo_runtime

    form = client.get("/").text.split('id="adjust-form"')[1].split("</form>")[0]
    assert '<label>Desetine poena <input name="units"' in form  # Satir writes 2.5
    assert '<option value="A">Strana A (Ana &amp; Ceca)</option>' in form
    table = demo_runtime(game="ulti", deals=1, plays=3, seed=4)
    page = TestClient(create_app(table, admin_password_hash="")).get("/?lang=en").text
    form = page.split('id="adjust-form"')[1].split("</form>")[0]
    assert '<label>Points <input name="units"' in form
    assert '<option value="1">Bora</option>' in form  # each for himself: the player

    table.close()


def test_a_deals_scores_in_the_log_name_each_players_side_by_the_player() -> None:
    from kibic.demo import demo_runtime

    table = demo_runtime(game="ulti", deals=1, plays=1000, seed=4)  # the deal over
    scores = next(e["scores"] for e in reversed(table.snapshot()["log"])
                  if e["kind"] == "deal_scored")  # fmt: skip
    page = TestClient(create_app(table, admin_password_hash="")).get("/?lang=en").text
    said = ", ".join(f"{n}: {scores[str(k)]}" for k, n in enumerate(["Ana", "Bora", "Cica"]))
    assert f'<li data-kind="deal_scored">Deal over: {said}</li>' in page
    table.close()


def test_a_directors_score_correction_is_in_the_log_with_its_side_and_reason() -> None:
    from kibic.demo import demo_runtime

    table = demo_runtime(game="veliki-satir", deals=1, plays=0, seed=3)
    table.adjust_score("B", 15, "late arrival waived")
    table.adjust_score("A", -20, "a card shown")
    app = create_app(table, admin_password_hash="")
    page = TestClient(app).get("/?lang=en").text
    assert ('<li data-kind="score_adjusted">Score correction, Side B (Bora &amp; Dule): '
            "+1.5 (late arrival waived)</li>") in page  # fmt: skip
    assert "Score correction, Side A (Ana &amp; Cica): -2.0 (a card shown)</li>" in page
    page = TestClient(app).get("/?lang=sr").text
    assert "Ispravka rezultata, Strana B (Bora &amp; Dule): +1.5 (late arrival waived)" in page
    table.close()


def test_satirs_fans_are_listed_by_seat() -> None:
    from kibic.demo import demo_runtime

    table = demo_runtime(game="veliki-satir", deals=1, plays=9, seed=3)
    fans = table.snapshot()["deal"]["fans"]
    assert any(fans.values())
    page = TestClient(create_app(table, admin_password_hash="")).get("/").text
    listed = page.split("<h3>Lepeze</h3>")[1].split("</ul>")[0]
    items = re.findall(r'<li><span class="seat-name">([^<]+)</span>(.*?)</li>', listed, re.S)
    shown = {name: re.findall(r'data-card="(\w+)"', cards) for name, cards in items}
    names = ["Ana", "Bora", "Cica", "Dule"]
    assert shown == {names[int(s)]: cards for s, cards in fans.items() if cards}
    table.close()


def test_a_seats_marks_stand_apart_from_what_follows_them() -> None:
    """'Dealer6 cards in hand': the page wrote the dealer's and the turn's marks against the
    seat's next words."""
    from kibic.demo import demo_runtime

    table = demo_runtime(game="ruzicka", deals=2, plays=9, seed=7)
    html = TestClient(create_app(table, admin_password_hash="")).get("/?view=list&lang=en").text
    seats = [
        re.sub(r"<[^>]+>", "", li) for li in re.findall(r'<li class="seat[^>]*>.*?</li>', html)
    ]
    assert seats[1] == "Bora Seat 1 · Side B Dealer 6 cards in hand"
    assert seats[3] == "Dule Seat 3 · Side B To play 6 cards in hand"
    table.close()


def test_what_a_player_said_is_in_the_log_in_the_tables_words() -> None:
    """The log wrote Dvoglavac's "announces solo-C" and "kontra kontra": a suit by its letter,
    a word twice."""
    from kibic.demo import demo_runtime

    table = demo_runtime(game="dvoglavac", deals=3, plays=5, seed=3)
    page = TestClient(create_app(table, admin_password_hash="")).get("/?lang=en").text
    table.close()
    log = re.findall(r'<li data-kind="action">([^<]*)</li>', page)
    assert "Dule: announces solo ♣" in log and "Bora: kontra" in log, log
    assert not any("solo-C" in line or line.endswith(" ") for line in log), log
