"""The table view, the score chart and the replay of a deal, as the server renders them."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from firmware_bridge.patterns import Pattern
from kibic.demo import demo_runtime
from kibic.runtime import TableRuntime
from referee.actions import Action, ActionType
from referee.cards import Card
from referee.registry import all_games, load_game
from tests.test_web_support import (
    NAMES,
    illegal_play,
    known_hands,
    legal_play,
    play_trick,
)
from tests.test_web_support import client as client  # noqa: F401 - the fixture
from tests.test_web_support import runtime as runtime  # noqa: F401 - the fixture
from web.cards import card_text
from web.table_view import lamp_colour, place

SEAT = re.compile(
    r'<div class="tv-seat at-([a-z-]+)[^"]*" data-seat="(\d)"(?: data-card="([^"]+)")?>'
)


def seats_shown(html: str) -> dict[int, tuple[str, str | None]]:
    """Each seat of the table view: its place and the card in front of it."""
    return {int(seat): (where, card or None) for where, seat, card in SEAT.findall(html)}


def finish_deal(runtime: TableRuntime) -> None:  # noqa: F811
    while runtime.deal is not None and not runtime.deal.is_over:
        runtime.submit(legal_play(runtime))


def test_the_seats_sit_around_the_table_with_the_trick_in_front_of_them(
    client: TestClient,  # noqa: F811
    runtime: TableRuntime,  # noqa: F811
) -> None:
    html = client.get("/table").text
    assert '<html lang="sr">' in html and 'data-partial="tableview"' in html
    assert seats_shown(html) == {0: ("bottom", None), 1: ("right", None), 2: ("top", None),
                                 3: ("left", None)}  # fmt: skip
    for name in NAMES:
        assert f'<span class="tv-name">{name}</span>' in html
    assert 'id="announcer"' in html and 'role="alert"' in html  # outside the live part
    # seat 0 is on turn (its lamp is the LED's green), seat 3 deals; the trump is hearts
    assert f'fill="{lamp_colour(Pattern.TURN)}"' in html
    assert re.search(r'data-seat="0"><div class="tv-plate">.*?data-pattern="turn"', html)
    assert re.search(r'data-seat="3"><div class="tv-plate">.*?chip dealer', html)
    assert '<dt>Adut</dt><dd><span class="suit red">♥</span> herc' in html
    played: dict[int, str] = {}
    for _ in range(3):
        action = legal_play(runtime)
        runtime.submit(action)
        played[action.seat] = str(action.card)
        shown = seats_shown(client.get("/partials/tableview").text)
        assert {s: c for s, (_, c) in shown.items() if c} == played
    # the fourth card completes the trick: its cards stay, the winner's marked, until a lead
    last = legal_play(runtime)
    events = runtime.submit(last)
    played[last.seat] = str(last.card)
    winner = next(e["winner"] for e in events if e["kind"] == "trick_won")
    part = client.get("/partials/tableview").text
    assert {s: c for s, (_, c) in seats_shown(part).items() if c} == played
    assert 'data-done="yes"' in part and f"štih nosi {NAMES[winner]}" in part
    assert re.search(rf'data-seat="{winner}"[^>]*>.*?<div class="tv-play won">', part)
    lead = legal_play(runtime)
    runtime.submit(lead)
    part = client.get("/partials/tableview").text
    shown = seats_shown(part)
    assert {s: c for s, (_, c) in shown.items() if c} == {lead.seat: str(lead.card)}
    # one trick won, and four cards taken: the winner's chip counts the trick
    blocks = part.split('<div class="tv-seat ')[1:]
    chips = {int(re.search(r'data-seat="(\d)"', b)[1]): re.findall(r"štihova: (\d+)", b)  # type: ignore[index]
             for b in blocks}  # fmt: skip
    assert chips == {s: ["1" if s == winner else "0"] for s in range(4)}


def test_the_scores_are_large_and_per_side(client: TestClient, runtime: TableRuntime) -> None:  # noqa: F811
    finish_deal(runtime)
    totals = runtime.snapshot()["match"]["totals"]
    html = client.get("/table?lang=en").text
    for side, total in totals.items():
        assert (f'<div class="tv-score" data-side="{side}"><span class="tv-score-side">'
                f'Side {side}</span>') in html  # fmt: skip
        assert f'<span class="tv-total" data-len="{len(str(total))}">{total}</span>' in html
    assert "Ana &amp; Ceca" in html and "Bora &amp; Duško" in html  # partners opposite
    assert html.count('<span class="tv-side">Side ') == 4  # each seat says its side


def test_the_title_says_what_the_game_is_played_to(client: TestClient) -> None:  # noqa: F811
    html = client.get("/table?lang=en").text  # Veliki Satir: 50.0 a partija, 3 the match
    assert '<span class="tv-target">game to 50.0 · match to 3</span>' in html
    assert '<span class="tv-target">partija do 50.0 · meč do 3</span>' in client.get("/table").text
    from kibic.demo import demo_runtime
    from web.app import create_app

    for game, said in (("gin-rummy", "game to 100</span>"), ("ulti", None)):
        table = demo_runtime(game=game, deals=1, plays=3, seed=3)
        page = TestClient(create_app(table, admin_password_hash="")).get("/table?lang=en").text
        table.close()
        shown = re.search(r'<span class="tv-target">[^<]*</span>', page)
        assert shown.group(0).endswith(said) if said else shown is None, (game, shown)


def test_where_each_plays_for_himself_a_score_is_headed_by_its_player() -> None:
    """Ulti's sides are its seats: a tile headed "Side 0" over "Ana", and "Side 0" under each
    name on the felt, named a number no player at the table knows."""
    from kibic.demo import demo_runtime
    from web.app import create_app

    table = demo_runtime(game="ulti", deals=2, plays=5, seed=3)
    html = TestClient(create_app(table, admin_password_hash="")).get("/table?lang=en").text
    table.close()
    for side, name in (("0", "Ana"), ("1", "Bora"), ("2", "Cica")):
        tile = html.split(f'<div class="tv-score" data-side="{side}">')[1].split("</div>")[0]
        assert f'<span class="tv-score-side">{name}</span>' in tile, tile
        assert "tv-score-names" not in tile  # the name once
    assert 'class="tv-side"' not in html and "Side " not in html


def test_a_camera_question_shows_at_its_seat_until_the_director_answers(
    client: TestClient,  # noqa: F811
    runtime: TableRuntime,  # noqa: F811
) -> None:
    """The play waits for the director's answer to a camera question: the table's screen said
    nothing of it, and the players saw a game that had stopped for no reason."""
    action = legal_play(runtime)
    assert action.card is not None
    other = Card.parse("2C") if action.card != Card.parse("2C") else Card.parse("3C")
    request_id = runtime.request_confirmation(action.seat, [action.card, other], [0.55, 0.4])
    part = client.get("/partials/tableview?lang=en").text
    blocks = {int(re.search(r'data-seat="(\d)"', b)[1]): b  # type: ignore[index]
              for b in part.split('<div class="tv-seat ')[1:]}  # fmt: skip
    asked = {s for s, b in blocks.items() if '<span class="chip asked">camera asks</span>' in b}
    assert asked == {action.seat}
    name = runtime.names[action.seat]
    cards = f"{card_text(action.card.code)} / {card_text(other.code)}"
    assert (f'<p class="tv-asked">The camera asks which card {name} played ({cards}?): '
            "the director confirms it</p>") in part  # fmt: skip
    runtime.confirm_card(request_id, action.card)
    part = client.get("/partials/tableview?lang=en").text
    assert "tv-asked" not in part and "chip asked" not in part


def test_a_proven_revoke_takes_over_the_view_and_marks_the_seat(
    client: TestClient,  # noqa: F811
    runtime: TableRuntime,  # noqa: F811
) -> None:
    assert 'id="takeover"' not in client.get("/table").text  # no accusation before proof
    for _ in range(6):
        runtime.submit(legal_play(runtime))
    revoke = illegal_play(runtime)
    assert revoke is not None
    events = runtime.submit(revoke)
    violation = next(e["violation"] for e in events if e["kind"] == "violation_proven")
    part = client.get("/partials/tableview").text
    takeover = re.search(r'<section id="takeover".*?</section>', part, re.S)
    assert takeover is not None
    text = takeover.group(0)
    assert " hidden " in text and 'data-ms="6000"' in text  # table.js shows it for 6 s
    name = NAMES[revoke.seat]
    assert f'<p class="takeover-who">{name}: nije odgovorio na boju</p>' in text
    assert f'data-role="played"><svg class="card" data-card="{violation["card"]}"' in text
    assert f'data-role="witness"><svg class="card" data-card="{violation["witness"]}"' in text
    # the evidence in the table's language, the seat named; not the stored English text
    card, held = card_text(violation["card"]), card_text(violation["witness"])
    assert f"{name} (mesto {revoke.seat}) je odigrao {card} iako je držao {held}" in text
    assert violation["evidence"] not in text
    # the seat keeps its mark and its red lamp
    assert f'class="tv-seat at-left marked" data-seat="{revoke.seat}"' in part
    assert "prekršaj: nije odgovorio na boju" in part
    english = client.get("/partials/tableview?lang=en").text
    assert f'<p class="takeover-who">{name}: failed to follow suit</p>' in english


@pytest.mark.parametrize("game", sorted(cls.name for cls in all_games()))
def test_every_game_has_its_table_view(game: str) -> None:
    """The demo's game of every registered game, stopped after three cards of its second deal:
    a seat per player at its own place, the trick's cards at the seats that played them, the
    chart and (for a game of tricks) the replay of the first deal."""
    from web.render import partial

    runtime = demo_runtime(game=game, deals=2, plays=3, seed=7)
    try:
        state = runtime.snapshot()
    finally:
        runtime.close()
    players = load_game(game).players
    html = partial(state=state, lang="sr", name="tableview")
    shown = seats_shown(html)
    assert sorted(shown) == list(range(players))
    assert len({where for where, _ in shown.values()}) == players  # no two at one place
    deal = state["deal"] or {}
    plays = (deal.get("trick") or {}).get("plays") or []
    if not plays and deal.get("tricks"):  # a complete trick stays on the felt until a lead
        plays = deal["tricks"][-1]["plays"]
    assert {s: c for s, (_, c) in shown.items() if c} == dict(plays)
    assert "<circle" in partial(state=state, lang="sr", name="summary")
    tricks = state["deals"][0].get("tricks")
    replay = partial(state=state, lang="sr", name="history", options={"deal": 1, "trick": 1})
    if isinstance(tricks, list) and tricks:
        assert seats_shown(replay) and "replay-error" not in replay
    else:
        assert "Deljenje 1 nije završeno ili nema zapisane štihove." in replay


def test_places_for_two_to_six_players() -> None:
    assert [place(s, 2) for s in range(2)] == ["bottom", "top"]
    assert [place(s, 3) for s in range(3)] == ["bottom", "right", "left"]
    assert place(6, 4) == "extra"


def play_deals(runtime: TableRuntime, count: int) -> None:  # noqa: F811
    """``count`` whole deals of Veliki Satir with known hands, the first already started."""
    for number in range(count):
        if number:
            runtime.start_deal(hands=known_hands(seed=7 + number))
            deal = runtime.deal
            assert deal is not None
            runtime.submit(Action(deal.to_act, ActionType.CONTRACT, value="zatvoreno"))  # type: ignore[attr-defined]
        finish_deal(runtime)


def test_the_chart_plots_the_sheets_totals(client: TestClient, runtime: TableRuntime) -> None:  # noqa: F811
    assert "score-chart" not in client.get("/summary").text  # nothing on the sheet yet
    play_deals(runtime, 3)
    rows = runtime.snapshot()["match"]["rows"]
    assert len(rows) == 3
    for path in ("/summary", "/history"):
        html = client.get(path).text
        chart = re.search(r'<figure class="chart" data-partija="1">.*?</figure>', html, re.S)
        assert chart is not None, path
        svg = chart.group(0)
        assert '<title id="chart-1-t">' in svg and '<desc id="chart-1-d">' in svg
        sheet = re.findall(r'<td class="num total" data-side="(\w)">([^<]*)<', html)
        for side in ("A", "B"):
            plotted = re.findall(rf'<circle data-side="{side}" data-row="\d+" data-total="([^"]*)"',
                                 svg)  # fmt: skip
            in_table = re.findall(rf'<td class="num" data-side="{side}">([^<]*)</td>', svg)
            assert plotted == in_table == [r["totals"][side] for r in rows], side
            if path == "/history":  # the page with the sheet: the same numbers as its rows
                assert plotted == [v for s, v in sheet if s == side][: len(rows)], side
        assert f"Strana A: {rows[-1]['totals']['A']}" in svg  # the last totals in the desc


def test_the_history_replays_a_deal_trick_by_trick(
    client: TestClient,  # noqa: F811
    runtime: TableRuntime,  # noqa: F811
) -> None:
    first = play_trick(runtime)
    finish_deal(runtime)
    record = runtime.snapshot()["deals"][0]
    tricks = record["tricks"]
    history = client.get("/history?lang=en").text
    assert 'href="/history?deal=1&amp;trick=1&amp;lang=en#replay"' in history
    assert [k["card"] for k in first if k["kind"] == "card_played"] == [
        c for _, c in tricks[0]["plays"]
    ]
    for k in (1, 2, len(tricks)):
        html = client.get(f"/history?deal=1&trick={k}&lang=en").text
        assert f'<section id="replay" class="replay" data-deal="1" data-trick="{k}"' in html
        shown = seats_shown(html)
        assert {s: c for s, (_, c) in shown.items() if c} == {
            s: c for s, c in tricks[k - 1]["plays"]
        }
        assert f"Trick {k} of {len(tricks)}" in html
        assert ("replay-prev" in html) == (k > 1) and ("replay-next" in html) == (k < len(tricks))
        partial = client.get(f"/partials/history?deal=1&trick={k}&lang=en").text
        assert f'data-trick="{k}"' in partial  # the live redraw keeps the replayed trick
        assert 'data-query="&amp;deal=1&amp;trick=' in html
    missing = client.get(f"/history?deal=1&trick={len(tricks) + 1}&lang=en").text
    assert f"Deal 1 has no trick {len(tricks) + 1} ({len(tricks)} tricks)." in missing
    assert "Deal 9 is not finished" in client.get("/history?deal=9&lang=en").text
    assert client.get("/history?deal=1&trick=0").status_code == 422


def test_the_bank_shows_what_is_left_in_it() -> None:
    from kibic.demo import demo_runtime
    from web.app import create_app

    table = demo_runtime(game="dvoglavac", deals=4, plays=1000, seed=3)
    units = table.snapshot()["match"]["totals_units"]
    assert units["Bank"] == -10  # deal 4: the Stara pair 2+3 fell, the Bank paid 5 to 0 and 1
    client = TestClient(create_app(table, admin_password_hash=""))
    html = client.get("/table?lang=en").text
    tile = html[html.index('<div class="tv-score" data-side="Bank">') :].split("</div>")[0]
    left = 500 + units["Bank"]
    assert '<span class="tv-score-side">Bank</span>' in tile
    assert f'<span class="tv-total" data-len="{len(str(left))}">{left}</span>' in tile
    assert "in the bank (of 500)" in tile and "Games won" not in tile
    sheet = client.get("/?lang=en").text
    assert '<th colspan="2" scope="colgroup">Bank</th>' in sheet and "Side Bank" not in sheet
    assert 'data-side="Bank">' not in sheet.split('class="points"')[1].split("</p>")[0]
    summary = client.get("/summary?lang=en").text
    won = summary[summary.index('<table id="summary">') :].split("</table>")[0]
    assert won.count("<tr data-side=") == 4 and 'data-side="Bank"' not in won
    assert "<th>Bank</th>" in summary  # its column of the partije's totals stays
    table.close()


def test_a_directors_correction_is_plotted_but_not_numbered_as_a_deal() -> None:
    from kibic.demo import demo_runtime
    from web.app import create_app

    table = demo_runtime(game="subrosa", deals=2, plays=1000, seed=3)
    table.adjust_score("A", 10, "a miscount")
    rows = table.snapshot()["match"]["rows"]
    assert [r["deal"] for r in rows] == [1, 2, 2]  # the correction follows deal 2
    html = TestClient(create_app(table, admin_password_hash="")).get("/summary?lang=en").text
    svg = html[html.index('<figure class="chart" data-partija="1">') :].split("</figure>")[0]
    under = re.findall(r'<text x="[\d.]+" y="[\d.]+" font-size="14" text-anchor="middle" '
                       r'fill="#333">([^<]*)</text>', svg)  # fmt: skip
    assert under == ["1", "2"]  # not "1 2 2"
    assert len(re.findall(r'<circle data-side="A" data-row="\d+"', svg)) == 3  # its point stays
    table.close()


def test_the_table_view_says_who_won_the_partija_until_the_next_deal() -> None:
    """The tiles show the next partija's totals (Ulti starts again from 0) once a deal ends
    one: the felt says who won it, with its final totals, and who won the match."""
    from kibic.demo import demo_runtime
    from web.app import create_app

    def won(table: TableRuntime, lang: str = "en") -> str | None:
        html = TestClient(create_app(table, admin_password_hash="")).get(f"/table?lang={lang}")
        found = re.search(r'<p class="tv-won" id="tv-won"[^>]*>.*?</p>', html.text)
        return None if found is None else found.group(0)

    ended = demo_runtime(game="ulti", deals=4, plays=1000, seed=3)  # Kec herc deli: over
    banner = won(ended)
    assert banner is not None and 'data-partija="1" data-side="1"' in banner
    text = " ".join(re.sub(r"<[^>]+>", " ", banner).split())
    # each plays for himself: the winner is his name, not "Side 1" (a number no player knows)
    assert text == "Bora won the game Ana -90 · Bora 54 · Cica 36 Bora won the match"
    assert "Pobednik partije: Bora" in str(won(ended, "sr"))  # no verb to agree with Bora
    log = TestClient(create_app(ended, admin_password_hash="")).get("/?lang=en").text
    assert '<li data-kind="partija_over">Bora won the game</li>' in log
    ended.close()
    for deals, plays in ((3, 1000), (5, 3)):  # before it ends, and once the next deal runs
        table = demo_runtime(game="ulti", deals=deals, plays=plays, seed=3)
        assert won(table) is None, (deals, plays)
        table.close()


def test_the_summary_gives_the_matchs_result_by_the_rules() -> None:
    """Gin's settlement for stakes (§14.5) was computed by no page: Ana won 100 : 80 with 6
    hands to 2, so 100 + 20 x 4 + 20."""
    from kibic.demo import demo_runtime
    from web.app import create_app

    table = demo_runtime(game="gin-rummy", deals=8, plays=1000, seed=3)
    html = TestClient(create_app(table, admin_password_hash="")).get("/summary?lang=en").text
    assert '<p id="match-winner" class="winner">Ana won the match</p>' in html
    assert (
        '<p id="match-final" class="winner">The match&#x27;s result by the rules: Ana +200 · Bora -200</p>'
        in html
    )
    assert "won by Ana" in html and "side 0" not in html.lower()
    rows = re.findall(r'<tr data-side="\d">(.*?)</tr>', html.split('<table id="summary">')[1])
    assert rows[0] == '<th>Ana</th><td class="num points">1</td>', rows  # the name once
    table.close()
    lav = demo_runtime(game="dvoglavi-lav", deals=40, plays=1000, seed=3)  # B wins 5 partije
    html = TestClient(create_app(lav, admin_password_hash="")).get("/summary?lang=en").text
    assert ("result by the rules: Side A (Ana &amp; Cica) -4757 · "
            "Side B (Bora &amp; Dule) +4757</p>") in html  # fmt: skip
    lav.close()


def test_a_gin_deal_in_the_history_has_no_tricks_and_names_its_players() -> None:
    from kibic.demo import demo_runtime
    from web.app import create_app

    table = demo_runtime(game="gin-rummy", deals=1, plays=1000, seed=3)
    html = TestClient(create_app(table, admin_password_hash="")).get("/history?lang=en").text
    deal = html.split('<article class="deal-record" data-number="1">')[1].split("</article>")[0]
    assert "<p>Ana: 8, Bora: 0</p>" in deal  # not "Tricks: 0 · Side 0: 8, Side 1: 0"
    assert "Tricks, card by card" not in deal
    table.close()
    satir = demo_runtime(game="veliki-satir", deals=1, plays=1000, seed=7)
    html = TestClient(create_app(satir, admin_password_hash="")).get("/history?lang=en").text
    assert "<p>Tricks: 13 · Side A: 4.0, Side B: -6.2</p>" in html  # a side of two keeps its name
    assert "Tricks, card by card" in html
    satir.close()


def test_a_deal_that_is_over_shows_its_scores_and_the_referees_account() -> None:
    from kibic.demo import demo_runtime
    from web.app import create_app

    over = demo_runtime(game="gin-rummy", deals=1, plays=1000, seed=3)
    tv = TestClient(create_app(over, admin_password_hash="")).get("/table?lang=en").text
    assert (
        '<p class="tv-phase">deal over · <b class="tv-result" id="tv-result">Ana: 8, Bora: 0</b>'
        in tv
    )
    detail = tv.split('<p class="tv-result-detail">')[1].split("</p>")[0]
    assert detail.startswith("knock: seat 0 (Ana) deadwood 4") and detail.endswith("scores 8")
    assert 'class="tv-play empty"' not in tv  # gin has no tricks: no empty places for them
    over.close()
    playing = demo_runtime(game="veliki-satir", deals=1, plays=6, seed=7)
    tv = TestClient(create_app(playing, admin_password_hash="")).get("/table?lang=en").text
    assert "tv-result" not in tv and 'id="tv-trick"' in tv  # a deal under way: its trick
    assert 'class="tv-play empty"' in tv
    playing.close()


def test_a_sides_tile_asks_it_to_confirm_the_deal_that_is_over() -> None:
    from kibic.demo import demo_runtime
    from web.app import create_app

    def asked(table: TableRuntime) -> list[str]:
        html = TestClient(create_app(table, admin_password_hash="")).get("/table?lang=en").text
        tiles = html.split('<div class="tv-score" data-side="')[1:]
        return [
            t.split('"')[0] for t in tiles if '<span class="tv-await">Confirm deal 1</span>' in t
        ]

    table = demo_runtime(game="veliki-satir", deals=1, plays=1000, seed=7)
    assert asked(table) == ["A", "B"]
    table.agree_deal(seat=1)  # side B's seat presses CONFIRM
    assert asked(table) == ["A"]
    table.agree_deal(seat=0)
    assert asked(table) == []  # confirmed by both
    table.close()
    playing = demo_runtime(game="veliki-satir", deals=2, plays=3, seed=7)
    assert asked(playing) == []  # the next deal under way: the list page still offers it
    playing.close()


def test_the_charts_end_labels_of_level_sides_do_not_overlap() -> None:
    from kibic.demo import demo_runtime
    from web.app import create_app

    table = demo_runtime(game="dvoglavac", deals=1, plays=1000, seed=3)  # three end on 5
    html = TestClient(create_app(table, admin_password_hash="")).get("/summary?lang=en").text
    ends = re.findall(r'<text x="[\d.]+" y="([\d.]+)" font-size="16" font-weight="bold"[^>]*>'
                      r"([^<]+)</text>", html)  # fmt: skip
    # each player's line ends with his name, the bank's with its own
    assert sorted(label for _, label in ends) == ["Ana 5", "Bank 0", "Bora -15", "Cica 5", "Dule 5"]
    styles = re.findall(
        r'<polyline data-side="(\w+)" points="[^"]*" fill="none" '
        r'stroke="(#\w+)" stroke-width="3"(?: stroke-dasharray="([^"]+)")?',
        html,
    )
    assert len(styles) == 5 and len({(c, d) for _, c, d in styles}) == 5  # five lines, unlike
    ys = sorted(float(y) for y, _ in ends)
    assert all(b - a >= 16 for a, b in zip(ys, ys[1:], strict=False)), ends
    table.close()


@pytest.mark.parametrize("game, seed, shown", [
    ("dvoglavi-lav", 5, ["Declarer (izvođač) Dule", "Commitment (obaveza) 53",
                         "Key card (ključ-karta) 9♥", "Stakes ×2", "Trump (adut) ♥ hearts"]),
    ("ulti", 4, ["Soloist (solo-igrač) Bora", "Bid (ponuda) 40-100",
                 "Doubled (kontra) Ana: 40-100 kontra", "Trump (adut) ♣ clubs"]),
    ("fortuna", 3, ["Soloist (solo-igrač) Bora", "The soloist must take every trick"]),
    ("dvoglavac", 3, ["Soloist (solo-igrač) Bora", "Game Podsolo (queenless solo)",
                      "Trump (adut) ♥ hearts"]),
])  # fmt: skip
def test_the_declarer_and_what_he_took_on_are_shown(game: str, seed: int, shown: list[str]) -> None:
    from kibic.demo import demo_runtime
    from web.app import create_app

    table = demo_runtime(game=game, deals=1, plays=6, seed=seed)
    client = TestClient(create_app(table, admin_password_hash=""))

    def text(html: str) -> str:
        return " ".join(re.sub(r"<[^>]+>", " ", html).split())

    tv = text(client.get("/table?lang=en").text.split('class="tv-centre"')[1].split("</div>")[0])
    info = client.get("/?lang=en").text
    listed = text(info[info.index('id="deal-info"') :].split("</dl>")[0])
    for fact in shown:
        assert fact in tv, (fact, tv)
        assert fact in listed, (fact, listed)
    table.close()


def test_ultis_talon_kontra_and_marriages_are_shown_once_public() -> None:
    from kibic.demo import demo_runtime
    from referee.registry import load_game
    from web.app import create_app
    from web.view import View

    under_way = demo_runtime(game="ulti", deals=1, plays=6, seed=293)
    assert under_way.snapshot()["deal"]["talon_cards"] is None  # face down until the end
    assert "talon" not in " ".join(f for f, _ in View(under_way.snapshot(), "en").deal_facts())
    under_way.close()
    table = demo_runtime(game="ulti", deals=1, plays=1000, seed=293)
    deal = table.snapshot()["deal"]
    played = {code for t in deal["tricks"] for _, code in t["plays"]}
    deck = {c.code for c in load_game("ulti").deck.cards}
    assert len(played) == 30 and sorted(deal["talon_cards"]) == sorted(deck - played)
    html = TestClient(create_app(table, admin_password_hash="")).get("/?lang=en").text
    listed = " ".join(
        re.sub(r"<[^>]+>", " ", html.split('id="deal-info"')[1].split("</dl>")[0]).split()
    )
    view = View(table.snapshot(), "en")
    talon = " ".join(view.card(c) for c in deal["talon_cards"])
    assert f"The soloist&#x27;s talon {talon}" in listed  # the apostrophe escaped
    assert "Marriages (marijaž) Cica 20" in listed  # declared 20 in trick 1 (seed 293)
    # Cica doubled the ulti and the passz, Bora (the soloist) redoubled the ulti
    assert "Doubled (kontra) Cica: ulti rekontra, passz kontra" in listed
    table.close()
