"""A name typed as markup is shown on every page of the table as text: the templates escape
every value (``web/templates/``, autoescape on).

Names enter where people type them: the seats' names of a new game (``POST /api/game``), a
director's score correction's reason (``POST /api/score-adjustments``), and where the login
sends the director afterwards (``/login?next=``). Seat 0 is called ``<script>alert(1)</script>``
and seat 2 ``" onmouseover="x`` (an attribute breaker: names are written into attributes too,
the played cards' labels and the start form's names). The table plays a whole deal (so the
history has one to replay), then a deal with a revoke by seat 2 (a penalty, the table view's
takeover), someone calls the director for seat 0, the camera asks about a card of seat 0.
"""

from __future__ import annotations

from collections.abc import Iterator
from html import escape
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient

from kibic.runtime import TableRuntime
from referee.actions import Action, ActionType
from referee.cards import Card
from tests.test_web_pages import revoke_in_a_finished_deal
from tests.test_web_support import (
    ADMIN,
    PASSWORD,
    PASSWORD_HASH,
    known_hands,
    legal_play,
    new_runtime,
    play_trick,
)
from web.app import create_app
from web.cards import card_svg, card_text
from web.i18n import t

EVIL = "<script>alert(1)</script>"
SHOWN = "&lt;script&gt;alert(1)&lt;/script&gt;"
BREAKER = '" onmouseover="x'
BROKEN = "&quot; onmouseover=&quot;x"
NAMES = [EVIL, "Bora", BREAKER, "Duško"]
RULE = "failed to follow suit"  # seat 2's revoke, in English


def start(client: TestClient, runtime: TableRuntime) -> None:
    """A game of the names above (through the API), its first deal declared."""
    r = client.post("/api/game", json={"spec": "veliki-satir", "names": NAMES}, headers=ADMIN)
    assert r.status_code == 200, r.text
    runtime.start_deal(hands=known_hands(7), dealer=3)
    runtime.submit(Action(0, ActionType.CONTRACT, value="zatvoreno"))


@pytest.fixture(scope="module")
def table() -> Iterator[tuple[TestClient, TableRuntime]]:
    runtime = new_runtime()
    try:
        with TestClient(create_app(runtime, admin_password_hash=PASSWORD_HASH)) as client:
            start(client, runtime)
            for _ in range(13):  # the whole deal: its record keeps every trick
                play_trick(runtime)
            assert runtime.snapshot()["deal"]["phase"] == "over"
            runtime.start_deal(hands=known_hands(8), dealer=0)
            runtime.submit(Action(1, ActionType.CONTRACT, value="zatvoreno"))
            revoke_in_a_finished_deal(runtime)
            assert runtime.snapshot()["deal"]["violations"][0]["seat"] == 2
            r = client.post("/api/score-adjustments", headers=ADMIN,
                            json={"side": "A", "units": 10, "reason": EVIL + BREAKER})  # fmt: skip
            assert r.status_code == 200, r.text
            r = client.post("/api/director-calls", json={"seat": 0})
            assert r.status_code == 200, r.text
            runtime.request_confirmation(0, [Card.parse("AS"), Card.parse("AC")], [0.6, 0.4])
            yield client, runtime
    finally:
        runtime.close()


class Elements(HTMLParser):
    """Every element of a page with its attributes' names, and the scripts' sources."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.attributes: set[str] = set()
        self.scripts: list[str | None] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.attributes |= {name for name, _ in attrs}
        if tag == "script":
            self.scripts.append(dict(attrs).get("src"))


#: every page of the table (and each live part, which the page script fetches again): its path,
#: its query, and the scripts it loads itself
OWN = ["/static/table.js", "/static/app.js", "/static/picker.js"]
PAGES: dict[str, tuple[str, dict[str, str | int], list[str]]] = {
    "table": ("/", {}, OWN),
    "table view": ("/table", {}, OWN),
    "history": ("/history", {}, OWN),
    "replay": ("/history", {"deal": 1, "trick": 3}, OWN),
    "replay, no such trick": ("/history", {"deal": 1, "trick": 99}, OWN),
    "summary": ("/summary", {}, OWN),
    "table, live part": ("/partials/table", {}, []),
    "table view, live part": ("/partials/tableview", {}, []),
    "replay, live part": ("/partials/history", {"deal": 1, "trick": 13}, []),
    "summary, live part": ("/partials/summary", {}, []),
    "login": ("/login", {"next": f"/{EVIL}{BREAKER}"}, []),
}


def get(client: TestClient, page: str, lang: str = "en") -> str:
    path, query, _ = PAGES[page]
    r = client.get(path, params={**query, "lang": lang})
    assert r.status_code == 200, r.text[:300]
    return r.text


def assert_text_only(html: str, scripts: list[str]) -> None:
    assert EVIL not in html and BREAKER not in html
    parsed = Elements(html)
    assert parsed.scripts == scripts  # no script but the page's own
    assert not {a for a in parsed.attributes if a.startswith("on")}  # no handler smuggled in


@pytest.mark.parametrize("lang", ["sr", "en"])
@pytest.mark.parametrize("page", list(PAGES))
def test_a_name_typed_as_markup_is_shown_as_text(
    table: tuple[TestClient, TableRuntime], page: str, lang: str
) -> None:
    html = get(table[0], page, lang)
    assert SHOWN in html and BROKEN in html
    assert_text_only(html, PAGES[page][2])


def test_each_place_a_name_is_written_escapes_it(table: tuple[TestClient, TableRuntime]) -> None:
    """The names as text and in attributes: seats, the director's call, the camera's question,
    the penalty, the log, the sheet, the admin forms, the table view's takeover and the replay."""
    client, runtime = table
    page = get(client, "table")
    assert f'<span class="seat-name">{SHOWN}</span>' in page
    assert f'<span class="seat-name">{BROKEN}</span>' in page
    assert f"<strong>{escape(t('en', 'call_line', name=EVIL))}</strong>" in page
    request = runtime.snapshot()["pending"][0]["id"]
    assert f'<li data-request="{request}">{escape(t("en", "pending_line", name=EVIL))}<' in page
    penalty = page.split('<li class="violation"')[1].split("</li>")[0]
    assert f"{escape(t('en', 'violation'))}:</strong> {BROKEN}: {RULE}, trick 1, " in penalty
    log = page.split('<ol id="log">')[1].split("</ol>")[0]
    called = escape(t("en", "ev_director_called", name=EVIL))
    assert f'<li data-kind="director_called">{called}</li>' in log
    correction = escape(f"{t('en', 'adjustment')}: {EVIL}{BREAKER}")
    assert f'<td class="detail">{correction}</td>' in page  # the sheet's row of the correction
    assert f'<option value="0">0 — {SHOWN}</option>' in page  # the call and the action forms
    assert f'<option value="2">2 — {BROKEN}</option>' in page
    assert f'<input name="names" size="30" value="{SHOWN}, Bora, {BROKEN}, Duško">' in page
    view = get(client, "table view")
    assert f'<span class="tv-name">{SHOWN}</span>' in view
    assert f'<span class="tv-score-names">{SHOWN} &amp; {BROKEN}</span>' in view
    takeover = view.split('<section id="takeover"')[1].split("</section>")[0]
    assert f'<p class="takeover-who">{escape(t("en", "tv_who", name=BREAKER, rule=RULE))}</p>' in (
        takeover
    )
    felt = get(client, "replay").split('<section id="replay"')[1].split("</section>")[0]
    assert f'<span class="tv-name">{SHOWN}</span>' in felt
    assert f'<span class="tv-name">{BROKEN}</span>' in felt
    summary = get(client, "summary")
    assert f"<td>{SHOWN}, {BROKEN}</td>" in summary  # side A: seats 0 and 2
    login = get(client, "login")
    assert f'<input type="hidden" name="next" value="/{SHOWN}{BROKEN}">' in login


def test_a_played_card_names_its_seat_in_attributes_as_text() -> None:
    """A card on the felt is a button labelled with who played it (``aria-label``,
    ``data-what`` for the picker): the breaker's name stays inside the attribute."""
    runtime = new_runtime()
    try:
        with TestClient(create_app(runtime, admin_password_hash=PASSWORD_HASH)) as client:
            start(client, runtime)
            while not any(seat == 2 for seat, _ in runtime.snapshot()["deal"]["trick"]["plays"]):
                runtime.submit(legal_play(runtime))
            ((code,),) = [[c for s, c in runtime.snapshot()["deal"]["trick"]["plays"] if s == 2]]
            card = card_text(code)
            for page in ("table", "table view"):
                html = get(client, page)
                label = escape(t("en", "played_card", name=BREAKER, card=card))
                what = escape(t("en", "picker_what", name=BREAKER, card=card))
                assert f'data-what="{what}" aria-haspopup="dialog" aria-label="{label}">' in html
                assert_text_only(html, OWN)
    finally:
        runtime.close()


def test_the_pages_after_login_escape_too(table: tuple[TestClient, TableRuntime]) -> None:
    """Logged in, the table page's panel and the login page show the logout form; the names
    are still text, and the page to return to is a value, never markup."""
    client, _ = table
    r = client.post("/login", data={"password": PASSWORD, "next": f"/?x={EVIL}", "lang": "en"},
                    follow_redirects=False)  # fmt: skip
    assert r.status_code == 303, r.text
    try:
        for page in ("table", "login"):
            html = get(client, page)
            assert 'id="logout-form"' in html
            assert_text_only(html, PAGES[page][2])
        html = get(client, "table view")  # the picker carries the session, not the login
        assert 'id="login-form"' not in html and 'id="picker"' in html
        assert_text_only(html, PAGES["table view"][2])
    finally:
        client.cookies.clear()


def test_a_card_code_that_is_no_card_is_drawn_as_text() -> None:
    svg = card_svg(EVIL)
    assert f'data-card="{SHOWN}"' in svg and f"<title>{SHOWN}</title>" in svg
    assert EVIL not in svg
