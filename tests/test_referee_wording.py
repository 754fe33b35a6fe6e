"""What the referee says is worded on the pages in Serbian and English: every kind of refusal,
evidence, score detail and notice has a code, both languages have it, and no Serbian wording
carries the English words of its template (``referee.wording``, ``web.i18n_referee``)."""

from __future__ import annotations

import ast
import pickle
import random
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.actions import Action, ActionType
from referee.cards import Card
from referee.deal import Deal, Mode, Phase
from referee.errors import RefereeError
from referee.events import DealScored, Event, Notice, PenaltyAssessed, ViolationProven
from referee.perft import specs
from referee.registry import load_game
from referee.transcript import replay
from referee.wording import KINDS, Kind, Said, load_all
from web.i18n_referee import RULES, SR, word

ROOT = Path(__file__).resolve().parent.parent
TRANSCRIPTS = sorted((ROOT / "tests" / "transcripts").glob("*.json"))

#: words of the English templates that are the games' own terms, said as they are in Serbian
#: too, or the names of options and inputs (in quotes in the templates)
GAME_TERMS = frozenset(
    """stara staras solo podsolo prikriveni dalje igram sa prvim štihom krnja otvoreno brejk
    repom dvoglavog lava fortuna znanje egalite štigljenje durchmars passz betli uver herc kec
    deli gin kontra rekontra boji bank ulti amb ambiguity reveal pass štih mač special suit
    satir duginim bojama zatvoreno aktivno pasivno talon partner true false""".split()
)


def _english_words(template: str) -> set[str]:
    """The words of an English template a reader would see (not its fields, not quoted input
    names, not game terms)."""
    text = re.sub(r"\{[^}]*\}", " ", template)
    text = _unquoted(text)
    words = {w.lower() for w in re.findall(r"[A-Za-zšđčćžŠĐČĆŽ]{3,}", text)}
    return words - GAME_TERMS


def _unquoted(text: str) -> str:
    """The text without its quoted input names ('upcard', 'layoff-on-gin') and hyphenated
    option values (first-trick), which are typed as they are in either language."""
    text = re.sub(r"'[^']*'", " ", text)
    return re.sub(r"\S*-\S*", " ", text)


def _sample(name: str) -> object:
    """A value of the kind a field of this name holds."""
    base = name.rsplit("_", 1)[-1]
    if name == "action":
        return Action.play(1, "TD")
    if name in ("held", "witness", "other_card") or base == "card":
        return Card.parse("AC")
    if base == "cards":
        return (Card.parse("AS"), Card.parse("KD"))
    if name == "rule":
        return "follow-suit"
    if name == "type" or base == "type":
        return ActionType.OFFER
    if name == "phase":
        return Phase.PLAY
    if name in ("led", "trump"):
        return "trump"
    return 3


def _rendered(kind: Kind) -> Said:
    return kind(**{name: _sample(name) for name in kind.fields})


def test_every_kind_of_the_referee_is_registered_and_worded_in_both_languages() -> None:
    kinds = load_all()
    # every game module adds its own kinds: the registry is read from the code, not a list
    for prefix in ("satir.", "lav.", "dvoglavac.", "fortuna.", "ruzicka", "subrosa", "gin.",
                   "ulti.", "play.", "revoke.", "table.", "camera.", "deck."):  # fmt: skip
        assert any(code.startswith(prefix) for code in kinds), prefix
    assert sorted(set(kinds) - set(SR)) == []  # every code has its Serbian words
    assert sorted(set(SR) - set(kinds)) == []  # and no Serbian text is left without a code
    for code, kind in kinds.items():
        english = set(kind.fields)
        serbian = {f.split("!")[0] for _, f, _, _ in string.Formatter().parse(SR[code]) if f}
        assert {"seat" if f == "seat_name" else f for f in serbian} == english, code


@pytest.mark.parametrize("code", sorted(load_all()))
def test_a_kind_is_worded_in_serbian_without_its_english_words(code: str) -> None:
    kind = KINDS[code]
    said = _rendered(kind).to_dict()
    english = word(said, "en", fallback="UNKNOWN")
    serbian = word(said, "sr", fallback="UNKNOWN", names=["Ana", "Bane", "Ceca", "Dule"])
    assert "UNKNOWN" not in (english, serbian)
    left = sorted(w for w in _english_words(kind.english) if re.search(
        rf"(?<![\wšđčćž]){re.escape(w)}(?![\wšđčćž])", _unquoted(serbian).lower()))  # fmt: skip
    assert left == [], f"{code}: {serbian!r} keeps English words {left}"


def test_no_refusal_evidence_detail_or_notice_is_made_without_its_kind() -> None:
    """Read from the source: every refusal is raised from a registered kind, every violation,
    result and notice with a text is built from a statement (``.of``), so none can be missed by
    the tables above."""
    bare: list[str] = []
    paths = [*sorted((ROOT / "referee").rglob("*.py")), ROOT / "kibic" / "runtime.py",
             ROOT / "kibic" / "camera.py"]  # fmt: skip
    for path in paths:
        if path.name in ("errors.py", "wording.py"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            name = node.func.id
            texts = [a for a in node.args if isinstance(a, ast.JoinedStr | ast.Constant)
                     and isinstance(getattr(a, "value", ""), str)]  # fmt: skip
            if (
                name in ("ActionError", "IllegalPlay", "OptionsError", "UnknownGameError")
                and node.args
            ):
                bare.append(f"{path.name}:{node.lineno} {name}")
            elif name in ("Violation", "Notice") or (name == "DealResult" and texts):
                bare.append(f"{path.name}:{node.lineno} {name}")
        for node in ast.walk(tree):  # the camera's and the table's alerts
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("alert", "_alert")
                and node.args
                and isinstance(node.args[0], ast.JoinedStr | ast.Constant)
            ):
                bare.append(f"{path.name}:{node.lineno} {node.func.attr}")
    assert bare == []


# -- what the referee says in real deals -----------------------------------------------------


def _statements(events: list[Event]) -> Iterator[Said | None]:
    for event in events:
        if isinstance(event, ViolationProven | PenaltyAssessed):
            yield event.violation.said
        elif isinstance(event, DealScored):
            yield event.said
        elif isinstance(event, Notice):
            yield event.said


def _candidates(deal: Deal, rng: random.Random, game_cards: list[Card]) -> list[Action]:
    """Mostly a legal action where they are known (so deals end and are scored), else any card
    of the deck for the seat on turn (revokes, cards of other hands, cards played twice), or an
    action of any type by any seat."""
    out: list[Action] = []
    try:
        legal = deal.legal_actions()
    except RefereeError:
        legal = []
    if legal and rng.random() < 0.8:
        return legal
    to_act = getattr(deal, "to_act", None)
    seat = to_act if isinstance(to_act, int) else rng.randrange(deal.players)
    out.extend(Action.play(seat, c) for c in rng.sample(game_cards, 4))
    kind = rng.choice(list(ActionType))
    out.append(Action(rng.randrange(deal.players + 1), kind, rng.choice(game_cards),
                      tuple(rng.sample(game_cards, 2)), rng.choice([None, "x", "take", "20"])))  # fmt: skip
    return out


def _said_by(spec: str, *, known: bool, seeds: range) -> tuple[list[Said], list[str], set[str]]:
    """Play random deals of ``spec`` (with known or hidden hands) in table mode, trying every
    kind of input; what the referee said, the refusals that had no code, the rules named."""
    game = load_game(spec)
    cards = list(game.deck.cards)
    said: list[Said] = []
    uncoded: list[str] = []
    rules: set[str] = set()
    for seed in seeds:
        rng = random.Random(seed)
        hands, setup = game.deal_cards(rng)
        try:
            deal = game.new_deal(dealer=seed % game.players, hands=hands if known else None,
                                 setup=setup if known else {}, mode=Mode.TABLE)  # fmt: skip
        except RefereeError as exc:
            said.extend([exc.said] if exc.said else [])
            continue
        for _ in range(400):
            if deal.is_over:
                break
            options = _candidates(deal, rng, cards)
            action = rng.choice(options)
            try:
                events = deal.play(action)
            except RefereeError as exc:
                if exc.said is None:
                    uncoded.append(f"{spec}: {action}: {exc}")
                else:
                    said.append(exc.said)
                    rules.add(getattr(exc, "rule", "procedure"))
                continue
            said.extend(s for s in _statements(events) if s is not None)
            rules.update(e.violation.rule for e in events if isinstance(e, ViolationProven))
    return said, uncoded, rules


def _check_worded(statements: list[Said]) -> None:
    for statement in statements:
        data = statement.to_dict()
        serbian = word(data, "sr", fallback="UNKNOWN")
        english = word(data, "en", fallback="UNKNOWN")
        assert "UNKNOWN" not in (serbian, english), statement.code
        assert "?" not in serbian.replace("'?'", ""), (statement.code, serbian)
        assert serbian != english or not _english_words(KINDS[statement.code].english)


@pytest.mark.parametrize("spec", specs())
def test_every_game_and_variant_words_what_its_referee_says(spec: str) -> None:
    said, uncoded, rules = [], [], set()
    for known in (True, False):
        s, u, r = _said_by(spec, known=known, seeds=range(6))
        said += s
        uncoded += u
        rules |= r
    assert uncoded == []  # every refusal the referee raised carries its code
    assert {s.code for s in said if KINDS[s.code].group == "refusal"}  # refusals were tried
    assert any(KINDS[s.code].group == "detail" for s in said), spec  # a deal was scored
    _check_worded(said)
    assert sorted(rules - set(RULES["sr"])) == []


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.stem)
def test_every_transcript_is_worded_in_both_languages(path: Path) -> None:
    """The recorded games (violations proven, notices, details of every game) word fully."""
    import json

    rep = replay(json.loads(path.read_text(encoding="utf-8")))
    said: list[Said] = []
    for events in rep.events:
        said.extend(s for s in _statements(events) if s is not None)
    for deal in rep.deals:
        said.extend(v.said for v in deal.violations if v.said is not None)
        assert all(v.said is not None for v in deal.violations)
        if deal.result is not None:
            assert deal.result.said is not None, path.name
            said.append(deal.result.said)
    assert said
    _check_worded(said)
    rules = {v.rule for d in rep.deals for v in d.violations}
    assert sorted(rules - set(RULES["sr"])) == []


def test_the_issues_examples_are_worded_in_serbian() -> None:
    """The texts a Serbian page showed in English: a revoke's evidence, a detail of the sheet,
    a camera alert, a refusal."""
    from referee.games.ruzicka_rules import CHANGE_FELL, FALLS
    from referee.table_refusals import CAMERA_REFUSED
    from referee.trick import KNOWN_HAND, OUT_OF_TURN

    names = ["Ana", "Dule", "Ceca", "Bane"]
    revoke = KNOWN_HAND(seat=1, card=Card.parse("TD"), held=Card.parse("AC"))
    assert revoke.text == "seat 1 played TD while holding AC (known hand)"
    assert word(revoke.to_dict(), "sr", names=names) == (
        "Dule (mesto 1) je odigrao 10♦ iako je držao A♣ (poznata ruka)"
    )
    fell = FALLS(side="B", points=-30, why=CHANGE_FELL(mine=14, theirs=39))
    assert fell.text == "B falls -30: joker change fell (14:39)"
    assert word(fell.to_dict(), "sr") == "B pada -30: promena džokera je pala (14:39)"
    refusal = OUT_OF_TURN.error(action=Action.play(2, "AS"), turn=0, rule="out-of-turn")
    alert = CAMERA_REFUSED(seat=2, card=Card.parse("AS"), reason=refusal)
    assert alert.text == "camera: seat 2 AS: seat 2 play AS: out of turn, seat 0 is to play"
    assert word(alert.to_dict(), "sr") == (
        "kamera: mesto 2 A♠: mesto 2 igra A♠: van reda, na potezu je mesto 0"
    )


def test_pages_of_an_older_table_show_the_stored_english_text() -> None:
    """A snapshot written before statements had codes (no ``code``, no ``said``) renders with
    the English text it has; a code the pages do not know is shown as stored too."""
    from web.render import View

    view = View({"names": ["Ana", "Dule"]}, "sr")
    old = {"seat": 1, "rule": "follow-suit", "evidence": "seat 1 played TD while holding AC"}
    assert view.said(old, old["evidence"]) == "seat 1 played TD while holding AC"
    unknown: dict[str, Any] = {"code": "revoke.from_the_future", "facts": {}}
    assert view.said(unknown, "as stored") == "as stored"
    assert view.detail("B falls -30: joker change fell", None) == "B falls -30: joker change fell"


def test_a_camera_alert_and_the_log_are_worded_in_the_pages_language() -> None:
    """A card the camera saw out of turn is an alert with its refusal's facts: the Serbian
    table page words it in Serbian, the English one in English; the log names action types in
    the page's language."""
    from html import unescape

    from tests.test_web_support import NAMES, new_runtime, start_known_deal
    from web.render import partial

    runtime = new_runtime()
    try:
        start_known_deal(runtime)
        deal = runtime.deal
        assert deal is not None
        seat = (deal.to_act + 1) % 4  # type: ignore[attr-defined]
        card = sorted(deal.hands[seat])[0]  # type: ignore[attr-defined]
        assert runtime.on_sighting(seat, card) == []
        assert runtime.alerts[-1].startswith(f"camera: seat {seat} {card.code}: ")  # as before
        assert runtime.snapshot()["alert_items"][-1]["code"] == "camera.refused"
        serbian = unescape(partial(state=runtime.snapshot(), lang="sr", name="table"))
        english = unescape(partial(state=runtime.snapshot(), lang="en", name="table"))
    finally:
        runtime.close()
    # the seats named by their players on the pages (the stored English text keeps numbers)
    to_act: int = deal.to_act  # type: ignore[attr-defined]
    name, forehand = NAMES[seat], NAMES[to_act]
    alerts_sr = serbian[serbian.index('id="alerts"') :]
    assert f"kamera: mesto {seat} ({name}) " in alerts_sr
    assert f"van reda, na potezu je mesto {to_act} ({forehand})" in alerts_sr
    assert "out of turn" not in alerts_sr
    alerts_en = english[english.index('id="alerts"') :]
    assert f"camera: seat {seat} ({name}) " in alerts_en
    assert f"out of turn, seat {to_act} ({forehand}) is to play" in alerts_en
    log_sr = serbian[serbian.index('id="log"') : serbian.index('id="alerts"')]
    assert "Ana: zvanje zatvoreno" in log_sr  # the forehand's contract, not "contract"


def test_a_statement_is_worded_from_its_values_as_they_were_when_it_was_made() -> None:
    """A statement works out its facts when first read; a list or set among its values is
    copied when it is made, so a later change of the referee's state does not reach it."""
    kept = Kind("test.kept", "seat {seat} holds {cards}", "notice")
    KINDS["test.kept"] = kept
    try:
        hand = [Card.parse("AS"), Card.parse("TD")]
        said = kept(seat=2, cards=hand)
        hand.append(Card.parse("7C"))
        assert said.facts == {"seat": 2, "cards": "AS TD"}
        assert said.text == "seat 2 holds AS TD"
        assert said == Said("test.kept", {"seat": 2, "cards": "AS TD"})
    finally:
        del KINDS["test.kept"]


def test_an_event_quotes_its_statement_with_code_facts_and_inner_statements() -> None:
    reason = Kind("test.reason", "trick {trick}", "part")
    outer = Kind("test.outer", "seat {seat}: {why}", "notice")
    said = outer(seat=1, why=reason(trick=3))
    KINDS.update({"test.reason": reason, "test.outer": outer})
    try:
        event = Notice.of(said, 1).to_dict()
    finally:
        del KINDS["test.reason"], KINDS["test.outer"]
    assert event == {
        "kind": "notice",
        "text": "seat 1: trick 3",
        "seat": 1,
        "said": {
            "code": "test.outer",
            "facts": {"seat": 1},
            "inner": {"why": [{"code": "test.reason", "facts": {"trick": 3}, "inner": {}}]},
        },
    }


def test_a_refusal_is_worded_when_its_message_is_read() -> None:
    refused = Kind("test.refused", "{action}: not now", "refusal")
    KINDS["test.refused"] = refused
    try:
        error = refused.error(action=Action.play(0, "AS"))
        assert str(error) == "seat 0 play AS: not now"
        assert error.code == "test.refused"
        assert error.facts["action_card"] == "AS"
        assert refused.refused(action=Action.play(1, "KD")).error().args == ()
        copied = pickle.loads(pickle.dumps(error))
        assert (str(copied), copied.code, copied.rule) == (str(error), error.code, error.rule)
    finally:
        del KINDS["test.refused"]
