"""One rendering of the runtime's snapshot (a JSON-ready dict) in one language: the words and
values every page of the dashboard shows (``View``), as plain text for the templates.

Only presentation lives here: which seat is on turn, who won a trick and every score come from
the snapshot; the referee is asked only how to write a score (``format_score``) and which side
a seat belongs to (``side_of``). Every text comes from ``web.i18n``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from referee.cards import Card
from referee.errors import RefereeError
from referee.game import Game
from referee.match import ADJUSTED
from referee.registry import load_game
from web.cards import card_text
from web.i18n import t
from web.i18n_referee import action_type, rule_name, word
from web.templating import SUIT_SYMBOLS

State = Mapping[str, Any]
#: how many unconfirmed deals the table page offers to confirm (the most recent ones)
AGREE_SHOWN = 3
#: how many of the latest events and camera alerts the table page's log shows
LOG_SHOWN, ALERTS_SHOWN = 14, 5


@lru_cache(maxsize=32)
def _game(spec: str) -> Game | None:
    try:
        return load_game(spec)
    except RefereeError:
        return None


class View:
    """One rendering of a state in one language (helpers shared by every part)."""

    def __init__(self, state: State, lang: str, options: Mapping[str, Any] | None = None) -> None:
        self.state = state
        self.lang = lang
        self.options: Mapping[str, Any] = options or {}  # a page's query (the history's replay)
        spec = state.get("game")
        self.game = _game(spec) if isinstance(spec, str) else None
        self.names: list[str] = list(state.get("names") or [])
        self.deal: Mapping[str, Any] | None = state.get("deal")
        self.match: Mapping[str, Any] = state.get("match") or {}
        self.sides: list[str] = list(state.get("sides") or self.match.get("sides") or [])

    def t(self, key: str, **fields: object) -> str:
        return t(self.lang, key, **fields)

    def name(self, seat: object) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return self.t("seat_no", seat=seat)

    def caller(self, seat: object) -> str:
        """Who called the director: a seat's name, or the whole table (no seat)."""
        return self.t("whole_table") if seat is None else self.name(seat)

    def seat_names(self, side: object, sep: str) -> str:
        """The names of ``side``'s seats, joined by ``sep``."""
        return sep.join(self.name(s) for s in self.seats_of(side))

    def seats_of(self, side: object) -> list[int]:
        """The seats that play for ``side`` (none for Dvoglavac's bank, a score column)."""
        if self.game is not None:
            return list(self.game.seats_of(side))
        return [s for s in range(self.players) if self.side_of(s) == side]

    def seated(self, side: object) -> bool:
        """Whether a seat plays for ``side``."""
        return bool(self.seats_of(side))

    def tricks_won(self) -> dict[int, int]:
        """Each seat's tricks won in the deal, counted from its finished tricks (the deal's
        ``taken`` counts the cards those tricks hold); a seat with none is left out."""
        won: dict[int, int] = {}
        for trick in (self.deal or {}).get("tricks") or []:
            winner = trick.get("winner")
            if isinstance(winner, int):
                won[winner] = won.get(winner, 0) + 1
        return won

    def side_title(self, side: object) -> str:
        """A side's heading: ``Side A``; the player of a side of one seat (``Ana``, where each
        plays for himself: "Side 0" says nothing a player knows); the bank for a score column
        no seat plays for."""
        if self.game is not None and not self.seated(side):
            return self.t("bank")
        player = self.player_of(side)
        return self.t("side_name", side=side) if player is None else player

    def player_of(self, side: object) -> str | None:
        """The name of the one player of ``side``, where a side is one seat; else None."""
        seats = self.seats_of(side)
        return self.name(seats[0]) if len(seats) == 1 else None

    def one_seat_sides(self) -> bool:
        """Whether each side is one seat (each plays for himself): a seat's side is then its
        player, not worth a line under his name."""
        return bool(self.sides) and all(len(self.seats_of(s)) <= 1 for s in self.sides)

    def won_by(self, key: str, side: object) -> str:
        """The sentence ``key`` (``ev_partija_over``, ``match_winner``...) naming the side that
        won: ``Side A (Ana & Cica) won the game``; for a side of one seat its ``key_player``
        sentence with the player's name (``Bora won the game``), which Serbian words without a
        verb that would have to agree with the player."""
        player = self.player_of(side)
        if player is None:
            return self.t(key, side=self.side_named(side))
        return self.t(f"{key}_player", name=player)

    def targets(self) -> str:
        """What the game is played to, for the table's title: ``game to 50.0 · match to 3``
        (the partija's target as the game writes a score, and the partije that win the match
        where more than one does); empty for a game with no target (Fortuna, Ulti)."""
        if self.game is None or self.game.partija_target <= 0:
            return ""
        text = self.t("tv_target", target=self.game.format_score(self.game.partija_target))
        if self.game.match_target > 1:
            text += " · " + self.t("tv_match_target", count=self.game.match_target)
        return text

    def units_key(self) -> str:
        """What a score correction's number counts in this game: tenths of a point where the
        game writes its scores with a decimal (Satir), else points."""
        tenths = self.game is not None and self.game.format_score(1) != "1"
        return "units_tenths" if tenths else "units"

    def corrected_partija(self) -> int | None:
        """The finished partija a score correction would go back into, when it would not go
        into the running one (``Match.correction_partija``)."""
        number = self.match.get("correction_partija")
        return number if isinstance(number, int) else None

    def correction_may_end(self) -> str | None:
        """The running partija's target, worded, where a correction that reaches it would end
        the partija with its last deal (``Match.adjust``): once a deal of it is written, when a
        correction goes into it and the game ends a partija at a target."""
        if self.game is None or self.corrected_partija() is not None:
            return None
        target = self.game.partija_target
        running = self.match.get("partija")
        rows = self.match.get("rows") or ()
        dealt = any(r.get("partija") == running and not is_adjustment(r) for r in rows)
        return self.game.format_score(target) if target > 0 and dealt else None

    def side_short(self, side: object) -> str:
        """A side in a few letters, where a chart's line ends: the player of a side of one
        seat (``Bora``), the bank, or the side itself (``A``)."""
        player = self.player_of(side)
        if player is not None:
            return player[:12]
        return str(side) if self.seated(side) else self.side_title(side)

    def bank_balance(self, side: object) -> str | None:
        """What is left in the bank (its start and its column's total, written as a score),
        for the bank's column of a game that has one (Dvoglavac); else None."""
        balance = getattr(self.game, "bank_balance", None)
        if balance is None or self.seated(side):
            return None
        units = self.match.get("totals_units") or {}
        return self.score(balance(units))

    def bank_start(self) -> str:
        """The bank's balance before any deal (``bank_balance`` of no totals)."""
        balance = getattr(self.game, "bank_balance", None)
        return self.score(balance({})) if balance is not None else ""

    def side_in_words(self, side: object, *, players: bool = False) -> str:
        """A side where scores are listed: the player of a side of one seat (``Ana``), else its
        title (``Side A``; with ``players``, ``Side A (Ana & Cica)``), the bank by its title."""
        return self.side_label(side) if players else self.side_title(side)

    def side_named(self, side: object) -> str:
        """A side with the names of its seats, to go after the word "side" in a sentence
        (``1 (Bora)``, ``A (Ana & Cica)``); the bank by its title."""
        seats = self.seat_names(side, " & ")
        if self.game is not None and not self.seated(side):
            return self.side_title(side)
        return f"{side} ({seats})" if seats else str(side)

    def deal_result(self) -> dict[str, str] | None:
        """The scores and the referee's account of the deal that is over, until the next one
        begins (``Ana: 8, Bora: 0`` and ``knock: ...``); None while a deal is played."""
        if not self.deal_is_over():
            return None
        record = (self.state.get("deals") or [])[-1]
        return {"scores": self.scores_text(record.get("scores")),
                "detail": self.detail(record.get("detail"), record.get("said"))}  # fmt: skip

    def deal_is_over(self) -> bool:
        """Whether the deal shown is over and on the record, the next not begun yet."""
        over = self.deal is not None and self.deal.get("phase") == "over"
        return over and bool(self.state.get("deals"))

    def plays_tricks(self) -> bool:
        """Whether the deal is played in tricks (gin is not: the felt has no trick to show)."""
        return self.deal is None or "tricks" in self.deal

    def just_won(self) -> dict[str, Any] | None:
        """What the deal that is over has just won, until the next deal begins: the partija
        (its number, winner and final totals, the tiles showing the next one's) and, once the
        match has a winner, the match; else None."""
        deal = self.deal
        if deal is not None and deal.get("phase") != "over":
            return None
        partije = self.match.get("partije") or []
        if not partije or self.corrected_partija() != partije[-1].get("number"):
            return None  # the running partija has deals written: none has just ended
        last = partije[-1]
        totals = last.get("totals") or {}
        return {"partija": last.get("number"), "side": last.get("winner"),
                "totals": [f"{self.side_short(s)} {v}" for s, v in totals.items()],
                "match": self.match.get("winner")}  # fmt: skip

    def side_label(self, side: object) -> str:
        """A side as the sheet heads it, with the names of its seats."""
        named = self.side_title(side)
        if self.player_of(side) is not None:
            return named  # the player's name is the title
        seats = self.seat_names(side, " & ")
        return f"{named} ({seats})" if seats else named

    def side_of(self, seat: int) -> str:
        if self.game is not None and 0 <= seat < self.game.players:
            return self.game.side_of(seat)
        return str(seat)

    def score(self, units: object) -> str:
        if isinstance(units, int) and self.game is not None:
            return self.game.format_score(units)
        return str(units)

    def final_result(self) -> str | None:
        """The match's net result as the rules prescribe it, once it is won (gin's settlement
        for stakes, Dvoglavi Lav's match bonus): ``Ana +200 · Bora -200``; None without one."""
        final = self.match.get("final")
        if not isinstance(final, Mapping) or not final:
            return None
        order = [s for s in self.sides if s in final] + [s for s in final if s not in self.sides]
        return " · ".join(
            f"{self.side_in_words(s, players=True)} {self.signed_score(final[s])}" for s in order
        )

    def signed_score(self, units: object) -> str:
        """A score that is a change, with its sign: ``+200``, ``-1.5``, ``0``."""
        return f"{'+' if isinstance(units, int) and units > 0 else ''}{self.score(units)}"

    def scores_text(self, scores: Mapping[str, Any] | None, *, raw: bool = False) -> str:
        """``Side A: 12, Side B: -3``: each side's score, written as the game writes a score
        (``raw``: as given); a side of one seat by its player (``Ana: 8, Bora: 0``)."""
        return ", ".join(
            f"{self.side_in_words(s)}: {v if raw else self.score(v)}"
            for s, v in (scores or {}).items()
        )

    def card(self, code: object) -> str:
        return card_text(str(code), joker="Džoker" if self.lang == "sr" else "Joker")

    def action_value(self, kind: object, value: object) -> str:
        """What a player said, for the play log: a contract in words; a card as the pages
        write it (Lav's key card ``8C`` as 8♣, another thing shown as named); a suit by its
        sign (Ulti's trump ``C`` as ♣, Dvoglavac's ``solo-C`` as ``solo ♣``); nothing where it
        repeats the action (``kontra``); else as the game names it (``40-100``, ``niz``)."""
        if value is None or value == "":
            return ""
        text = str(value)
        if kind == "show":
            return self.card(text)  # (a code that is no card is written as it is)
        if kind == "contract":
            text = self.contract(text)
        if text == str(kind):
            return ""
        head, _, last = text.rpartition("-")
        sign = SUIT_SYMBOLS.get(last)
        if sign is not None:
            return f"{head} {sign}" if head else sign
        return text

    def contract(self, contract: object) -> str:
        """A contract in words where this language has them, else as the game names it."""
        text = self.t(f"contract_{contract}")
        return str(contract) if text.startswith("contract_") else text

    def deal_facts(self) -> list[tuple[str, str]]:
        """(label, value) of what a deal's declarer took on, as its game's snapshot says it:
        the soloist or declarer, the bid or commitment, the key card, what Fortuna's soloist
        must take, what a Dvoglavac deal is, and raised stakes. Public facts only: each is
        said or shown at the table."""
        deal = self.deal or {}
        facts: list[tuple[str, str]] = []
        for key in ("soloist", "declarer"):
            if isinstance(deal.get(key), int):
                facts.append((self.t(f"fact_{key}"), self.name(deal[key])))
        if isinstance(deal.get("bid"), str):
            facts.append((self.t("fact_bid"), deal["bid"]))  # as the sheet's detail writes it
        if isinstance(deal.get("commitment"), int):
            facts.append((self.t("fact_commitment"), str(deal["commitment"])))
        if isinstance(deal.get("key"), str):
            facts.append((self.t("fact_key"), self.card(deal["key"])))
        if deal.get("goal") in ("all", "nothing"):
            facts.append((self.t("fact_goal"), self.t(f"goal_{deal['goal']}")))
        if self.game is not None and self.game.name == "dvoglavac" and deal.get("kind"):
            facts.append((self.t("fact_kind"), self.t(f"dv_kind_{deal['kind']}")))
        marriages = deal.get("marriages") or {}
        if marriages:  # Ulti: {seat: [twenties, forty]}, as declared in trick 1
            said = [f"{self.name(int(s))} {'+'.join(['40'] * bool(m[1]) + ['20'] * m[0])}"
                    for s, m in marriages.items()]  # fmt: skip
            facts.append((self.t("fact_marriages"), ", ".join(said)))
        kontra = deal.get("kontra") or {}
        if kontra:  # Ulti: {component: {defender: the doubling's name}}
            # each defender's stake is doubled on its own, so the doublings are grouped by the
            # defender whose stake they raise ("Cica: ulti rekontra, passz kontra"; the
            # rekontra is the soloist's answer to Cica's kontra)
            stakes: dict[str, list[str]] = {}
            for component, by in kontra.items():
                for d, level in by.items():
                    stakes.setdefault(d, []).append(f"{component} {level}")
            said = [f"{self.name(int(d))}: {', '.join(parts)}" for d, parts in stakes.items()]
            facts.append((self.t("fact_kontra"), "; ".join(said)))
        if deal.get("talon_cards"):
            facts.append(
                (self.t("fact_talon"), " ".join(self.card(c) for c in deal["talon_cards"]))
            )
        multiplier = deal.get("multiplier")
        if isinstance(multiplier, int) and multiplier > 1:
            facts.append((self.t("fact_multiplier"), f"×{multiplier}"))
        return facts

    def rule(self, rule: object) -> str:
        return rule_name(rule, self.lang)

    def action_type(self, kind: object) -> str:
        return action_type(kind, self.lang)

    def said(self, statement: object, fallback: object = "") -> str:
        """What the referee said (a code and its facts) in this page's language; ``fallback``
        (the English text stored with it) where it has no code this page knows."""
        text = "" if fallback is None else str(fallback)
        if not isinstance(statement, Mapping):
            return text
        return word(statement, self.lang, fallback=text, names=self.names)

    def detail(self, text: object, said: object = None) -> str:
        """A sheet row's detail; the runtime writes a director's correction as 'adjusted: ...'."""
        raw = "" if text is None else str(text)
        if raw.startswith(ADJUSTED):
            return f"{self.t('adjustment')}: {raw[len(ADJUSTED) :]}"
        return self.said(said, raw)

    def violation_line(self, v: Mapping[str, Any]) -> str:
        """Who broke which rule at which trick with which card."""
        card = self.card(v.get("card")) if v.get("card") else "—"
        return self.t("violation_line", name=self.name(v.get("seat")),
                      rule=self.rule(v.get("rule")), trick=v.get("trick"), card=card)  # fmt: skip

    def witness_line(self, v: Mapping[str, Any]) -> str:
        """The card that proved a violation, and at which trick; nothing when none is known."""
        if not (v.get("witness") or v.get("proven_at_trick")):
            return ""
        witness = self.card(v.get("witness")) if v.get("witness") else "—"
        return self.t("witness_line", proven=v.get("proven_at_trick"), witness=witness)

    def crop_of(self, code: object) -> object:
        """The camera's picture of the card ``code`` played in this deal (an id), if any."""
        return (self.state.get("crops") or {}).get(code)

    def deck_cards(self) -> Sequence[Card]:
        """Every card of the game's deck (a doubled deck's two copies each)."""
        return self.game.deck.cards if self.game is not None else ()

    def deck_faces(self) -> list[str]:
        """Every face of the game's deck once (a doubled deck's two copies look alike)."""
        return [c.code for c in dict.fromkeys(card.logical for card in self.deck_cards())]

    def awaiting_sides(self) -> list[str]:
        """The sides that have not yet confirmed the score of the deal that is over (a seat's
        CONFIRM button, or the list page's buttons, does it), until the next deal begins."""
        if not self.deal_is_over():
            return []
        records = self.state.get("deals") or []
        if records[-1].get("confirmed", True):
            return []
        agreed = set(records[-1].get("agreed") or [])
        return [s for s in self.state.get("agreeing_sides") or [] if s not in agreed]

    def waiting_deals(self) -> list[Mapping[str, Any]]:
        """The last few finished deals that not every side has confirmed yet."""
        waiting = [r for r in self.state.get("deals") or [] if not r.get("confirmed", True)]
        return waiting[-AGREE_SHOWN:]

    def candidates(self, request: Mapping[str, Any]) -> list[tuple[object, str]]:
        """A camera question's candidate cards, each with how sure the camera is (percent)."""
        pairs = zip(request.get("candidates") or [], request.get("confidences") or [],
                    strict=False)  # fmt: skip
        return [(code, f"{float(conf) * 100:.0f}") for code, conf in pairs]

    def camera_line(self) -> str:
        """One line on the camera: calibrated or waiting for the mat, and how much of the deck
        in use it has learnt; nothing for a table without a camera."""
        cam = self.state.get("camera")
        if not cam:
            return ""
        state = self.t("camera_ready" if cam.get("calibrated") else "camera_waiting")
        if cam.get("stopped"):
            state = self.t("camera_stopped", why=cam["stopped"])
        parts = [state, self.t("camera_deck", deck=cam.get("deck", ""))]
        prof = cam.get("profile")
        if prof:
            key = "camera_profile" if prof.get("enrolled") else "camera_profile_empty"
            parts.append(self.t(key, enrolled=prof.get("enrolled", 0), of=prof.get("of", 0),
                                learnt=prof.get("learnt", 0)))  # fmt: skip
            if not prof.get("saved"):
                parts.append(self.t("camera_profile_unsaved"))
        return " · ".join(parts)

    def log_events(self, limit: int = LOG_SHOWN) -> list[Mapping[str, Any]]:
        """The latest events (not the turns), newest first."""
        events = [ev for ev in (self.state.get("log") or []) if ev.get("kind") != "turn"]
        return list(reversed(events[-limit:]))

    def alert_items(self) -> list[Mapping[str, Any]]:
        """The latest camera alerts (an older snapshot has only their English texts)."""
        older = [{"text": a} for a in self.state.get("alerts") or []]
        said = self.state.get("alert_items") or older
        return list(said[-ALERTS_SHOWN:])

    def penalties_given(self) -> int:
        return sum(len(r.get("violations") or []) for r in self.state.get("deals") or [])

    def event_text(self, event: Mapping[str, Any]) -> str:
        """An event of the log in words; one this language cannot word as its kind and text."""
        kind = str(event.get("kind", ""))
        violation = event.get("violation") or {}
        fields: dict[str, object] = {
            "name": self.name(event.get("seat", violation.get("seat"))),
            "card": self.card(event.get("card")),
            "trick": event.get("trick", ""),
            "type": self.action_type(event.get("type", "")),
            "value": self.action_value(event.get("type"), event.get("value"))
            or " ".join(self.card(c) for c in event.get("cards") or []),
            "rule": self.rule(event.get("rule", violation.get("rule"))),
            "side": event.get("winner", ""),
            "text": event.get("text") or event.get("reason") or "",
            "kind": kind,
        }
        if kind == "trick_won":
            fields["name"] = self.name(event.get("winner"))
        if kind.startswith("director_"):
            fields["name"] = self.caller(event.get("seat"))
        if kind == "card_corrected":
            source = str(event.get("source") or "")
            fields["source"] = self.t("source_director") if source == "director" else source
            fields["was"] = self.card(event.get("was"))
        if kind in ("partija_over", "match_over"):
            return self.won_by(f"ev_{kind}", event.get("winner"))
        if kind == "score_adjusted":
            fields["side"] = self.side_in_words(event.get("side"), players=True)
            fields["value"] = self.signed_score(event.get("units"))
        if kind == "deal_agreed":
            fields["side"] = self.side_label(event.get("side"))
            fields["number"] = event.get("deal", "")
        if kind == "notice" and isinstance(event.get("said"), Mapping):
            fields["text"] = self.said(event["said"], event.get("text"))
        if kind == "deal_scored":
            scores = event.get("scores") or {}
            fields["scores"] = ", ".join(
                f"{self.side_short(s)}: {self.score(v)}" for s, v in scores.items()
            )
        key = f"ev_{kind}"
        if kind == "card_picked_up" and event.get("card") is None:
            key = "ev_card_picked_up_unseen"  # a stock draw (gin), a face-down pick-up (Lav)
        if self.t(key) == key:
            extra = event.get("text") or event.get("reason") or event.get("detail") or ""
            return f"{kind} {extra}".strip()
        return self.t(key, **fields).strip()  # (an action whose value says nothing more)

    @property
    def players(self) -> int:
        if self.game is not None:
            return self.game.players
        return len(self.names)


def is_adjustment(row: Mapping[str, Any]) -> bool:
    """Whether a sheet row (``Match.to_dict``'s) is a director's correction, not a deal."""
    return str(row.get("detail") or "").startswith(ADJUSTED)
