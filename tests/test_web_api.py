"""The JSON API with FastAPI's TestClient: every route, 401 / 409 / 422, the SSE wire format."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kibic.runtime import TableRuntime
from referee.cards import Card
from tests.test_web_support import (
    ADMIN,
    NAMES,
    illegal_play,
    legal_play,
    play_trick,
)
from tests.test_web_support import client as client  # noqa: F401 - the fixture
from tests.test_web_support import runtime as runtime  # noqa: F401 - the fixture
from web.app import create_app


def _loc(response: Any) -> list[list[Any]]:
    return [item["loc"] for item in response.json()["detail"]]


def play_body(runtime: TableRuntime) -> dict[str, Any]:  # noqa: F811
    action = legal_play(runtime)
    assert action.card is not None
    return {"seat": action.seat, "type": "play", "card": action.card.code}


# -- read-only routes ----------------------------------------------------------------------------


def test_state_shows_the_deal_in_play(client: TestClient, runtime: TableRuntime) -> None:  # noqa: F811
    body = client.get("/api/state").json()
    assert body["table_id"] == "sto-1"
    assert body["game"] == "veliki-satir"
    assert body["names"] == NAMES
    assert body["sides"] == ["A", "B"]
    assert body["deal"]["phase"] == "play"
    assert body["deal"]["contract"] == "zatvoreno"
    assert (body["deal"]["trump"], body["deal"]["joker_suit"]) == ("H", "D")
    assert body["deal"]["to_act"] == 0
    assert body["seq"] == runtime.snapshot()["seq"]


def test_games_lists_the_registry(client: TestClient) -> None:
    names = {g["name"] for g in client.get("/api/games").json()}
    assert {"veliki-satir", "mali-satir"} <= names


def test_history_after_a_finished_deal(client: TestClient, runtime: TableRuntime) -> None:  # noqa: F811
    assert client.get("/api/history").json()["deals"] == []
    for _ in range(13):
        play_trick(runtime)
    body = client.get("/api/history").json()
    assert len(body["deals"]) == 1
    deal = body["deals"][0]
    assert deal["number"] == 1 and len(deal["tricks"]) == 13
    assert body["match"]["rows"][0]["deal"] == 1
    assert set(body["match"]["totals"]) == {"A", "B"}


def test_export_transcript_and_csv(client: TestClient, runtime: TableRuntime) -> None:  # noqa: F811
    play_trick(runtime)
    transcript = client.get("/api/export/transcript")
    assert transcript.status_code == 200
    assert "attachment" in transcript.headers["content-disposition"]
    data = transcript.json()
    assert data["game"] == "veliki-satir" and data["names"] == NAMES
    assert data["deals"][0]["events"][0] == {"seat": 0, "type": "contract", "value": "zatvoreno"}
    assert len(data["deals"][0]["events"]) == 5
    sheet = client.get("/api/export/csv")
    assert sheet.headers["content-type"].startswith("text/csv")
    assert sheet.text.splitlines()[0].startswith("partija,deal,dealer,score A,score B")


def test_live_first_message_is_the_current_state(client: TestClient) -> None:
    response = client.get("/api/live", params={"limit": 1})
    assert response.headers["content-type"].startswith("text/event-stream")
    assert response.text.startswith("data: ") and response.text.endswith("\n\n")
    message = json.loads(response.text[len("data: ") :])
    assert message["events"] == []
    assert message["seq"] == message["state"]["seq"] == client.get("/api/state").json()["seq"]


def test_live_limit_must_be_positive(client: TestClient) -> None:
    response = client.get("/api/live", params={"limit": 0})
    assert response.status_code == 422
    assert _loc(response) == [["query", "limit"]]


def test_openapi_documents_every_route_and_the_password(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert {
        "/api/state",
        "/api/games",
        "/api/live",
        "/api/actions",
        "/api/game",
        "/api/undo",
        "/api/score-adjustments",
        "/api/pending/{request_id}/confirm",
        "/api/pending/{request_id}/dismiss",
        "/api/history",
        "/api/export/transcript",
        "/api/export/csv",
    } <= set(spec["paths"])
    scheme = spec["components"]["securitySchemes"]["TablePassword"]
    assert scheme == {
        "type": "apiKey",
        "in": "header",
        "name": "X-Kibic-Password",
        "description": scheme["description"],
    }
    assert "409" in spec["paths"]["/api/actions"]["post"]["responses"]
    docs = client.get("/docs")
    assert docs.status_code == 200 and "/docs-assets/swagger-ui-bundle.js" in docs.text
    assert "cdn." not in docs.text  # no internet at a table: the page is served locally
    bundle = client.get("/docs-assets/swagger-ui-bundle.js")
    assert bundle.status_code == 200 and len(bundle.content) > 100_000


# -- admin: the password -------------------------------------------------------------------------

ADMIN_ROUTES = [
    ("/api/actions", {"seat": 0, "type": "play", "card": "AS"}),
    ("/api/game", {"spec": "veliki-satir"}),
    ("/api/undo", None),
    ("/api/score-adjustments", {"side": "A", "units": 5, "reason": "x"}),
    ("/api/pending/abc/confirm", {"card": "AS"}),
    ("/api/pending/abc/dismiss", None),
]


@pytest.mark.parametrize(("path", "body"), ADMIN_ROUTES)
@pytest.mark.parametrize("headers", [{}, {"X-Kibic-Password": "wrong"}])
def test_admin_routes_need_the_password(
    client: TestClient, path: str, body: Any, headers: dict[str, str]
) -> None:
    seq = client.get("/api/state").json()["seq"]
    response = client.post(path, json=body, headers=headers)
    assert response.status_code == 401
    assert "X-Kibic-Password" in response.json()["detail"]
    assert client.get("/api/state").json()["seq"] == seq  # nothing happened


def test_no_stored_hash_refuses_every_password(runtime: TableRuntime) -> None:  # noqa: F811
    with TestClient(create_app(runtime, admin_password_hash="")) as test_client:
        response = test_client.post("/api/undo", headers={"X-Kibic-Password": ""})
        assert response.status_code == 401


# -- admin: actions ------------------------------------------------------------------------------


def test_action_play_returns_its_events(client: TestClient, runtime: TableRuntime) -> None:  # noqa: F811
    body = play_body(runtime)
    response = client.post("/api/actions", json=body, headers=ADMIN)
    assert response.status_code == 200
    data = response.json()
    assert data["events"][0] == {
        "kind": "card_played",
        "seat": 0,
        "card": body["card"],
        "trick": 1,
        "mode": "play",
    }
    assert data["events"][1] == {"kind": "turn", "seat": 1}
    assert data["seq"] == runtime.snapshot()["seq"]
    assert client.get("/api/state").json()["deal"]["trick"]["plays"] == [[0, body["card"]]]


def test_action_accepts_10_for_ten(client: TestClient, runtime: TableRuntime) -> None:  # noqa: F811
    # a card code written the long way is normalised before the referee sees it
    deal = runtime.deal
    assert deal is not None
    body = play_body(runtime)
    card = Card.parse(body["card"])
    long_form = body["card"].replace("T", "10").lower() if card.rank.code == "T" else body["card"]
    response = client.post("/api/actions", json={**body, "card": long_form}, headers=ADMIN)
    assert response.status_code == 200
    assert response.json()["events"][0]["card"] == card.code


def test_action_out_of_turn_is_409_with_the_referees_message(client: TestClient) -> None:
    response = client.post("/api/actions", json={"seat": 2, "type": "play", "card": "AS"}, headers=ADMIN)  # fmt: skip
    assert response.status_code == 409
    answer = response.json()
    assert answer["detail"] == "seat 2 play AS: out of turn, seat 0 is to play"
    # the same refusal as facts, and worded in the table's language (Serbian unless asked)
    assert answer["code"] == "play.out_of_turn"
    assert answer["facts"] == {"action": "seat 2 play AS", "action_seat": 2, "action_type": "play",
                               "action_card": "AS", "turn": 0}  # fmt: skip
    assert answer["text"] == "mesto 2 igra A♠: van reda, na potezu je mesto 0"
    english = client.post("/api/actions", json={"seat": 2, "type": "play", "card": "AS"},
                          headers={**ADMIN, "X-Kibic-Lang": "en"})  # fmt: skip
    assert english.json()["text"] == "seat 2 plays A♠: out of turn, seat 0 is to play"


def test_action_a_revoke_is_recorded_with_its_evidence(
    client: TestClient,
    runtime: TableRuntime,  # noqa: F811
) -> None:
    action = None
    while action is None:  # play until the seat to act holds a card it may not play
        action = illegal_play(runtime)
        if action is None:
            runtime.submit(legal_play(runtime))
    assert action.card is not None
    body = {"seat": action.seat, "type": "play", "card": action.card.code}
    response = client.post("/api/actions", json=body, headers=ADMIN)
    assert response.status_code == 200
    kinds = [event["kind"] for event in response.json()["events"]]
    assert "violation_proven" in kinds and kinds[-1] == "deal_scored"
    history = client.get("/api/history").json()["deals"]
    violation = history[0]["violations"][0]
    assert violation["seat"] == action.seat and violation["card"] == action.card.code
    assert "known hand" in violation["evidence"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"type": "play", "card": "AS"}, "seat"),
        ({"seat": "north", "type": "play", "card": "AS"}, "seat"),
        ({"seat": -1, "type": "play", "card": "AS"}, "seat"),
        ({"seat": 0, "type": "dance", "card": "AS"}, "type"),
        ({"seat": 0, "type": "play", "card": "1Z"}, "card"),
        ({"seat": 0, "type": "show", "cards": ["AS", "XX"]}, "cards"),
        ({"seat": 0, "type": "play", "card": "AS", "colour": "red"}, "colour"),
    ],
)
def test_action_malformed_is_422_naming_the_field(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    response = client.post("/api/actions", json=body, headers=ADMIN)
    assert response.status_code == 422
    fields = [loc[1] for loc in _loc(response)]
    assert fields[0] == field


def test_action_not_json_is_422(client: TestClient) -> None:
    response = client.post(
        "/api/actions", content=b"{seat: 0", headers={**ADMIN, "Content-Type": "application/json"}
    )
    assert response.status_code == 422
    assert response.json()["detail"][0]["type"] == "json_invalid"


# -- admin: game, undo, score, confirmations -----------------------------------------------------


def test_start_game_sets_the_table(client: TestClient) -> None:
    names = ["Mika", "Žika", "Pera"]
    response = client.post(
        "/api/game", json={"spec": "veliki-satir(players=3)", "names": names}, headers=ADMIN
    )
    assert response.status_code == 200
    state = client.get("/api/state").json()
    assert state["game"] == "veliki-satir(players=3)"
    assert state["names"] == names
    assert state["sides"] == ["0", "1", "2"]
    assert state["deal"] is None and state["match"]["rows"] == []


def test_start_game_unknown_is_422_on_spec(client: TestClient) -> None:
    response = client.post("/api/game", json={"spec": "preferans"}, headers=ADMIN)
    assert response.status_code == 422
    assert _loc(response) == [["body", "spec"]]
    assert "unknown game 'preferans'" in response.json()["detail"][0]["msg"]


def test_start_game_wrong_number_of_names_is_409(client: TestClient) -> None:
    response = client.post("/api/game", json={"spec": "veliki-satir", "names": ["A"]}, headers=ADMIN)  # fmt: skip
    assert response.status_code == 409
    assert response.json()["detail"] == "veliki-satir needs 4 names, got 1"


def test_undo_takes_back_the_last_play(client: TestClient, runtime: TableRuntime) -> None:  # noqa: F811
    body = play_body(runtime)
    client.post("/api/actions", json=body, headers=ADMIN)
    assert client.get("/api/state").json()["deal"]["trick"]["plays"] == [[0, body["card"]]]
    response = client.post("/api/undo", headers=ADMIN)
    assert response.status_code == 200
    state = client.get("/api/state").json()
    assert state["deal"]["trick"]["plays"] == [] and state["deal"]["to_act"] == 0


def test_undo_with_nothing_to_undo_is_409(client: TestClient) -> None:
    client.post("/api/game", json={"spec": "veliki-satir"}, headers=ADMIN)
    response = client.post("/api/undo", headers=ADMIN)
    assert response.status_code == 409
    assert response.json()["detail"] == "nothing to undo in this deal"
    assert response.json()["code"] == "table.nothing_undo_this_deal"
    assert response.json()["text"] == "u ovom deljenju nema šta da se poništi"


def test_score_adjustment_goes_on_the_sheet(client: TestClient) -> None:
    response = client.post(
        "/api/score-adjustments",
        json={"side": "B", "units": -15, "reason": "kasnio na partiju"},
        headers=ADMIN,
    )
    assert response.status_code == 200
    match = client.get("/api/state").json()["match"]
    assert match["totals"]["B"] == "-1.5"
    assert match["rows"][-1]["detail"] == "adjusted: kasnio na partiju"


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"side": "C", "units": 5, "reason": "x"}, 409, None),
        ({"side": "A", "units": 5}, 422, "reason"),
        ({"side": "A", "units": "pet", "reason": "x"}, 422, "units"),
        ({"side": "A", "units": 5, "reason": "   "}, 422, "reason"),
        ({"side": "A", "units": 0, "reason": "x"}, 422, "units"),  # the form's starting value
    ],
)
def test_score_adjustment_refused(
    client: TestClient, body: dict[str, Any], status: int, field: str | None
) -> None:
    response = client.post("/api/score-adjustments", json=body, headers=ADMIN)
    assert response.status_code == status
    if field is None:
        assert response.json()["detail"] == "unknown side 'C' (sides: A, B)"
    else:
        assert _loc(response)[0] == ["body", field]


def test_confirm_a_pending_card(client: TestClient, runtime: TableRuntime) -> None:  # noqa: F811
    action = legal_play(runtime)
    assert action.card is not None
    other = Card.parse("2C") if action.card != Card.parse("2C") else Card.parse("3C")
    request_id = runtime.request_confirmation(action.seat, [action.card, other], [0.55, 0.4])
    pending = client.get("/api/state").json()["pending"]
    assert pending == [
        {
            "id": request_id,
            "seat": action.seat,
            "candidates": [action.card.code, other.code],
            "confidences": [0.55, 0.4],
            "profile_card": None,
            "crop": None,  # no camera picture came with this question
        }
    ]
    response = client.post(
        f"/api/pending/{request_id}/confirm", json={"card": action.card.code}, headers=ADMIN
    )
    assert response.status_code == 200
    assert response.json()["events"][0]["card"] == action.card.code
    state = client.get("/api/state").json()
    assert state["pending"] == []
    assert state["deal"]["trick"]["plays"] == [[action.seat, action.card.code]]


def test_confirm_unknown_request_is_409_and_bad_card_422(client: TestClient) -> None:
    response = client.post("/api/pending/nope/confirm", json={"card": "AS"}, headers=ADMIN)
    assert response.status_code == 409
    assert response.json()["detail"] == "no pending confirmation 'nope'"
    response = client.post("/api/pending/nope/confirm", json={"card": "A"}, headers=ADMIN)
    assert response.status_code == 422
    assert _loc(response) == [["body", "card"]]


# -- pages ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/history", "/summary", "/partials/table"])
def test_pages_are_html_in_serbian_by_default(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "Tabela rezultata" in response.text or "Strana" in response.text


def test_partial_unknown_name_is_422(client: TestClient) -> None:
    response = client.get("/partials/secret")
    assert response.status_code == 422
    assert _loc(response) == [["path", "name"]]


def test_static_files_are_served(client: TestClient) -> None:
    script = client.get("/static/app.js")
    assert script.status_code == 200 and "EventSource" in script.text
    assert client.get("/static/style.css").status_code == 200


def test_dismiss_a_pending_card(client: TestClient, runtime: TableRuntime) -> None:  # noqa: F811
    request_id = runtime.request_confirmation(1, [Card.parse("AS")], [0.5])
    response = client.post(f"/api/pending/{request_id}/dismiss", headers=ADMIN)
    assert response.status_code == 200
    state = client.get("/api/state").json()
    assert state["pending"] == []
    assert state["log"][-1] == {"kind": "request_dismissed", "seat": 1}
    assert state["deal"]["trick"]["plays"] == []  # nothing was played
    again = client.post(f"/api/pending/{request_id}/dismiss", headers=ADMIN)
    assert again.status_code == 409
    assert again.json()["detail"] == f"no pending confirmation {request_id!r}"
