"""The table runtime: sightings and spoken actions in, referee events out.

Every input becomes a ``LogEntry`` that is committed to the event store *before* it is acted
on; the state is the replay of the log, so a restart (or a power cut) continues where the
table was. Outputs go to subscribers (the dashboard's live feed) and to sinks (the lights).
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

from kibic.feed import Feed, Subscription
from kibic.sheet_csv import seat_name, sheet_csv
from kibic.store import EventStore, LogEntry, StoreError, StoreUnreplayable
from referee.actions import Action, ActionType
from referee.cards import Card
from referee.deal import Deal, Mode
from referee.errors import RefereeError
from referee.events import DirectorAnswered, DirectorCalled, Event, TurnChanged
from referee.game import Game
from referee.match import Match
from referee.registry import load_game
from referee.table_refusals import (
    CAMERA_REFUSED,
    R_CORRECT_NOT_PLAYED,
    R_CORRECT_REFUSED,
    R_CORRECT_SAME_CARD,
    R_CORRECT_SHEET_CHANGED,
    R_CURRENT_DEAL_OVER,
    R_DEAL_FINISHED_FINISHED,
    R_DEAL_FINISHED_YET,
    R_GIVE_CONFIRMING_SIDE_SEAT,
    R_NEEDS_NAMES_GOT,
    R_NO_DEAL_TO_CORRECT,
    R_NOTHING_UNDO_THIS_DEAL,
    R_OPEN_CALL_FOR_DIRECTOR,
    R_PENDING_CONFIRMATION,
    R_SCORE_ADJUSTMENT_NEEDS_REASON,
    R_SCORE_ADJUSTMENT_OF_NOTHING,
    R_SEAT_DOES_EXIST_AT,
    R_UNKNOWN_SIDE_SIDES,
)
from referee.wording import Said

log = logging.getLogger(__name__)

LOG_KEEP = 60
#: what a finished deal's record keeps for undo and replay, not shown in the snapshot
FINISHED_PRIVATE = ("deal", "match_before", "requests", "crops", "setup", "adjusted_after")


class Sink(Protocol):
    """Something that reacts to referee events (the seat lights)."""

    def handle(self, events: Sequence[Event]) -> None: ...


class TableRuntime:
    def __init__(
        self,
        store: EventStore,
        *,
        table_id: str = "table-1",
        game: str = "veliki-satir",
        names: Sequence[str] | None = None,
        sinks: Sequence[Sink] = (),
    ) -> None:
        self.store = store
        self.table_id = table_id
        self._default_game = game
        self._default_names = list(names) if names else None
        self.sinks = list(sinks)
        self._lock = threading.RLock()
        self.feed = Feed()
        self._confirmation_listeners: list[Callable[[str, Card], None]] = []
        self._undo_listeners: list[Callable[[str], None]] = []
        self._correction_listeners: list[Callable[[int, Card, Card], None]] = []
        self._action_listeners: list[Callable[[Action], None]] = []
        self.alerts: list[str] = []
        # the same alerts with their codes and facts, where they have them (for other languages)
        self.alert_items: list[dict[str, Any]] = []
        self.camera: dict[str, Any] | None = None  # what the camera reports (set_camera_status)
        self._reset_state()
        for entry in self.store.entries():
            try:
                self._apply_entry(entry)
            except (RefereeError, KeyError, TypeError, ValueError, AssertionError) as exc:
                raise StoreUnreplayable(str(self.store.path), self.store.table_id, entry.seq,
                                        entry.kind, f"{type(exc).__name__}: {exc}") from exc  # fmt: skip
        if self.game_obj is None:
            self.start_game(game, names=names)

    # -- state ---------------------------------------------------------------------------------
    def _reset_state(self) -> None:
        self.game_obj: Game | None = None
        self.names: list[str] = []
        self.match: Match | None = None
        self.deal: Deal | None = None
        self.deal_setup: dict[str, Any] = {}
        # beside each action of the deal: the confirmation request it answered, if any
        self._deal_requests: list[str | None] = []
        # beside each action of the deal: the id of the camera's crop it was read from, if any
        self._deal_crops: list[str | None] = []
        self._undone_requests: list[str] = []
        self.finished: list[dict[str, Any]] = []
        # the director's score adjustments made after a finished deal that undo (or a
        # correction) has reopened, one list per reopened deal, the latest reopened last: they
        # go back on the sheet when that deal is over again, where they were
        self._held_adjustments: list[list[dict[str, Any]]] = []
        self.pending: dict[str, dict[str, Any]] = {}
        # open calls for the director, by id, oldest first
        self.calls: dict[str, dict[str, Any]] = {}
        self.log: list[dict[str, Any]] = []
        self.seq = 0

    @property
    def game(self) -> Game:
        assert self.game_obj is not None
        return self.game_obj

    # -- inputs (each one is logged first) -----------------------------------------------------
    def start_game(self, spec: str, *, names: Sequence[str] | None = None) -> None:
        game = load_game(spec)
        names = list(names) if names else [f"{i + 1}" for i in range(game.players)]
        if len(names) != game.players:
            raise R_NEEDS_NAMES_GOT.error(spec=spec, players=game.players, names_count=len(names))
        self._commit("game_started", {"spec": game.spec, "names": names})

    def start_deal(
        self,
        *,
        hands: Mapping[int, Sequence[Card]] | None = None,
        setup: Mapping[str, Any] | None = None,
        dealer: int | None = None,
        entry_id: str | None = None,
    ) -> None:
        with self._lock:
            if entry_id is not None and self.store.has(entry_id):
                return  # already stored (a retry after a crash)
            if self.deal is not None and not self.deal.is_over and self.deal.actions:
                raise self._refused("start a deal", R_CURRENT_DEAL_OVER.error())
            payload = self._deal_payload(hands=hands, setup=setup, dealer=dealer)
            # validate before writing: building the deal checks the hands and the dealer
            try:
                self._new_deal(payload)
            except RefereeError as exc:
                raise self._refused("start a deal", exc) from None
            self._commit("deal_started", payload, entry_id=entry_id)

    def _deal_payload(
        self,
        *,
        hands: Mapping[int, Sequence[Card]] | None = None,
        setup: Mapping[str, Any] | None = None,
        dealer: int | None = None,
    ) -> dict[str, Any]:
        """The ``deal_started`` entry of the next deal (the match's dealer and setup unless
        given)."""
        assert self.match is not None
        payload: dict[str, Any] = {
            "dealer": self.match.dealer if dealer is None else dealer,
            "setup": dict(self.match.next_setup if setup is None else setup),
        }
        if hands is not None:
            payload["hands"] = {str(s): [c.code for c in cs] for s, cs in hands.items()}
        return payload

    def _refused(self, what: object, exc: RefereeError) -> RefereeError:
        """Log a refused input (nothing else: the state and the event store stay as they were)
        and hand back the error to raise."""
        log.info("refused %s: %s", what, exc)
        return exc

    def submit(
        self,
        action: Action,
        *,
        source: str = "dashboard",
        entry_id: str | None = None,
        request_id: str | None = None,
        crop: str | None = None,
    ) -> list[dict[str, Any]]:
        """Check ``action`` against the referee, log it, apply it; return its events.
        ``request_id``: the confirmation request the action answers; ``crop``: the id of the
        camera's picture of the card (``keep_crop``)."""
        with self._lock:
            if entry_id is not None and self.store.has(entry_id):
                return []  # already stored (a retry after a crash): never doubled
            opening: dict[str, Any] | None = None
            deal = self.deal
            if deal is None or deal.is_over:
                # the first input after a deal opens the next one, but only if it is accepted:
                # a refused input must leave the finished deal (and its undo) as it was
                opening = self._deal_payload()
                deal = self._new_deal(opening)
            try:
                deal.check(action)
            except RefereeError as exc:
                raise self._refused(f"input from {source}", exc) from None
            if opening is not None:
                self._commit("deal_started", opening)
            payload: dict[str, Any] = {"action": action.to_dict(), "source": source}
            if request_id is not None:
                payload["request"] = request_id
            if crop is not None:
                payload["crop"] = crop
            events = self._commit("action", payload, entry_id=entry_id)
            for listener in list(self._action_listeners):
                try:
                    listener(action)
                except Exception:  # the action is recorded: a listener must not undo that
                    log.exception("action listener failed after %s", action.to_dict())
            return events

    def undo(self, *, source: str = "dashboard") -> None:
        """Take back the last action; from a deal with nothing played yet, the last action of
        the deal before (which is reopened, its score taken off the sheet)."""
        with self._lock:
            if self.deal is None or (not self.deal.actions and not self.finished):
                raise self._refused("undo", R_NOTHING_UNDO_THIS_DEAL.error())
            self._undone_requests = []
            self._commit("undo", {"source": source})
            undone, self._undone_requests = self._undone_requests, []
        for request_id in undone:
            for listener in list(self._undo_listeners):
                try:
                    listener(request_id)
                except Exception:  # a listener (vision forgetting an answer) must not break play
                    log.exception("undo listener failed for %s", request_id)

    def adjust_score(self, side: str, units: int, reason: str) -> list[dict[str, Any]]:
        """A director's correction of ``side``'s total; the events it gives (a partija's end
        judged again, ``Match.adjust``)."""
        with self._lock:
            if side not in self.game.sides:
                raise self._refused("a score adjustment", R_UNKNOWN_SIDE_SIDES.error(side=side, sides=', '.join(self.game.sides)))  # fmt: skip
            if not reason.strip():
                raise self._refused("a score adjustment", R_SCORE_ADJUSTMENT_NEEDS_REASON.error())
            if units == 0:  # the form's starting value, sent with a reason but no number
                raise self._refused("a score adjustment", R_SCORE_ADJUSTMENT_OF_NOTHING.error())
            return self._commit("adjust", {"side": side, "units": units, "reason": reason})

    def request_confirmation(
        self, seat: int, candidates: Sequence[Card], confidences: Sequence[float],
        profile_card: Card | None = None, *, crop: bytes | None = None,
    ) -> str:  # fmt: skip
        """Ask the table which card lies at ``seat``; ``profile_card``: the card the deck
        profile names when it disagreed with the reading (the reason to ask); ``crop``: the
        camera's picture of the card (JPEG), shown beside the question and kept with the play
        that answers it. The request's id."""
        request_id = uuid.uuid4().hex[:12]
        payload: dict[str, Any] = {"id": request_id, "seat": seat,
                                   "candidates": [c.code for c in candidates],
                                   "confidences": [round(float(x), 4) for x in confidences]}  # fmt: skip
        if profile_card is not None:
            payload["profile_card"] = profile_card.code
        crop_ref = self.keep_crop(crop)
        if crop_ref is not None:
            payload["crop"] = crop_ref
        self._commit("pending", payload)
        return request_id

    def confirm_card(
        self,
        request_id: str,
        card: Card,
        *,
        entry_id: str | None = None,
        value: str | None = None,
    ) -> list[dict[str, Any]]:
        with self._lock:
            request = self.pending.get(request_id)
            if request is None:
                raise self._refused(
                    "a confirmation", R_PENDING_CONFIRMATION.error(request_id=request_id)
                )
            card = self.physical_card(request["seat"], card)
            events = self.submit(
                Action.play(request["seat"], card, value), source="confirmation",
                entry_id=entry_id, request_id=request_id, crop=request.get("crop"),
            )  # fmt: skip
            self._commit("resolved", {"id": request_id, "decision": "confirmed", "card": card.code})
        for listener in list(self._confirmation_listeners):
            try:
                listener(request_id, card)
            except Exception:  # a listener (vision learning the deck) must not break play
                log.exception("confirmation listener failed for %s", request_id)
        return events

    def dismiss_request(self, request_id: str, *, source: str = "dashboard") -> None:
        """The director sets a camera question aside (the card was entered another way, or the
        camera saw no card): it leaves the screen and the log says so; nothing is played."""
        with self._lock:
            if request_id not in self.pending:
                raise self._refused(
                    "a dismissal", R_PENDING_CONFIRMATION.error(request_id=request_id)
                )
            self._commit("resolved", {"id": request_id, "decision": "dismissed", "source": source})

    def add_confirmation_listener(self, listener: Callable[[str, Card], None]) -> None:
        """Call ``listener(request_id, card)`` after each confirmation a person gives live
        (not when the log is replayed): the camera learns the deck from it."""
        self._confirmation_listeners.append(listener)

    def add_action_listener(self, listener: Callable[[Action], None]) -> None:
        """Call ``listener(action)`` after each action submitted live and accepted (not when
        the log is replayed): the synthetic table's players speak when their turn comes."""
        self._action_listeners.append(listener)

    def remove_action_listener(self, listener: Callable[[Action], None]) -> None:
        if listener in self._action_listeners:
            self._action_listeners.remove(listener)

    def add_correction_listener(self, listener: Callable[[int, Card, Card], None]) -> None:
        """Call ``listener(seat, played, card)`` after each correction of a misread card: the
        card ``seat`` played as ``played`` was really ``card`` (the camera's deck profile learns
        it)."""
        self._correction_listeners.append(listener)

    def add_undo_listener(self, listener: Callable[[str], None]) -> None:
        """Call ``listener(request_id)`` when a play that answered a confirmation request is
        undone live: the camera forgets what it learnt from that answer."""
        self._undo_listeners.append(listener)

    def physical_card(self, seat: int, card: Card) -> Card:
        """``card`` as it lies on the table: in a doubled deck (Dvoglavac's), whose two copies
        look alike, a card given by its face alone (read by the camera, or picked by the director)
        is the copy not yet played in this deal, the one ``seat`` holds where its hand is known;
        any other card as it is. With every copy played, the last copy: the referee then says
        it was played already."""
        deck = self.game_obj.deck if self.game_obj is not None else None
        if deck is None or deck.copies == 1 or card.copy != 0:
            return card
        deal = self.deal if self.deal is not None and not self.deal.is_over else None
        played = {a.card for a in deal.actions if a.card is not None} if deal is not None else set()
        free = [c for c in (replace(card, copy=k) for k in range(1, deck.copies + 1))
                if c not in played]  # fmt: skip
        hands = getattr(deal, "hands", None)
        if isinstance(hands, dict) and seat in hands:
            free = [c for c in free if c in hands[seat]] or free
        return free[0] if free else replace(card, copy=deck.copies)

    def on_sighting(
        self, seat: int, card: Card, *, value: str | None = None, crop: bytes | None = None
    ) -> list[dict[str, Any]]:
        """A card committed by vision (``crop``: its picture, JPEG, kept with the play). A
        misread (not playable now) is an alert, not a crash."""
        card = self.physical_card(seat, card)
        try:
            crop_ref = self.keep_crop(crop)
            return self.submit(Action.play(seat, card, value), source="camera", crop=crop_ref)
        except RefereeError as exc:
            self._alert(CAMERA_REFUSED(seat=seat, card=card, reason=exc))
            return []
        except StoreError as exc:  # a full disk: said on the dashboard, the camera goes on
            self._alert(CAMERA_REFUSED(seat=seat, card=card, reason=exc))
            return []

    def keep_crop(self, data: bytes | None) -> str | None:
        """Keep the camera's picture of a card in the store (beside the log, out of the
        state); its id, or None for no picture or one the store cannot keep (said, not fatal:
        the play counts without its picture)."""
        if not data:
            return None
        try:
            return self.store.put_crop(data)
        except (StoreError, ValueError) as exc:
            log.warning("camera: a crop was not kept: %s", exc)
            return None

    def crop(self, crop_id: str) -> tuple[bytes, str] | None:
        """The camera's picture ``crop_id`` as (bytes, MIME type), or None."""
        return self.store.crop(crop_id)

    def correct_card(
        self, seat: int, played: Card, card: Card, *, source: str = "director"
    ) -> list[dict[str, Any]]:
        """The card ``seat`` played as ``played`` (a misreading) was really ``card``: the deal
        is played again with it in its place, so tricks, proofs and the score follow the
        referee. Logged like every input (who corrected what); the current deal only, or the
        deal just finished while nothing of the next is played and nothing was written on the
        score sheet since. In a doubled deck a card given by its face is the free copy."""
        with self._lock:
            what = "a correction"
            deal = self.deal
            if deal is None:
                raise self._refused(what, R_NO_DEAL_TO_CORRECT.error())
            index = next((i for i, a in enumerate(deal.actions)
                          if a.type is ActionType.PLAY and a.seat == seat and a.card == played),
                         None)  # fmt: skip
            if index is None:
                raise self._refused(what, R_CORRECT_NOT_PLAYED.error(
                    name=seat_name(self.names, seat), played_card=played.code))  # fmt: skip
            if deal.is_over and not self._sheet_is_the_deals(deal):
                raise self._refused(what, R_CORRECT_SHEET_CHANGED.error())
            if card.logical == played.logical:
                raise self._refused(what, R_CORRECT_SAME_CARD.error(card=played.code))
            if card.copy == 0 and self.game.deck.copies > 1:
                card = self._free_copy(deal, card, index)
            try:
                self._replayed(deal, index, card)
            except RefereeError as exc:
                raise self._refused(what, R_CORRECT_REFUSED.error(
                    played_card=played.code, card=card.code, reason=exc)) from None  # fmt: skip
            payload = {"seat": seat, "index": index, "played": played.code, "card": card.code,
                       "source": source}  # fmt: skip
            out = self._commit("corrected", payload)
        for listener in list(self._correction_listeners):
            try:
                listener(seat, played, card)
            except Exception:  # a listener (vision learning the deck) must not break play
                log.exception("correction listener failed for seat %s", seat)
        return out

    def _sheet_is_the_deals(self, deal: Deal) -> bool:
        """Whether the score sheet is the finished ``deal``'s (nothing recorded on it since)."""
        if not self.finished or self.finished[-1]["deal"] is not deal or deal.result is None:
            return False
        assert self.match is not None
        expected = self.finished[-1]["match_before"].copy()
        expected.record(deal.result)
        return bool(expected.to_dict() == self.match.to_dict())

    def _free_copy(self, deal: Deal, card: Card, index: int) -> Card:
        """In a doubled deck, the copy of ``card`` that no other play of ``deal`` names."""
        others = {a.card for i, a in enumerate(deal.actions) if i != index and a.card is not None}
        for k in range(1, self.game.deck.copies + 1):
            if replace(card, copy=k) not in others:
                return replace(card, copy=k)
        return replace(card, copy=self.game.deck.copies)

    def _replayed(self, deal: Deal, index: int, card: Card) -> Deal:
        """``deal`` played again from its start with action ``index``'s card as ``card``."""
        actions = list(deal.actions)
        actions[index] = replace(actions[index], card=card)
        again = self._new_deal(self.deal_setup)
        for action in actions:
            again.play(action)
        return again

    def call_director(self, seat: int | None = None, *, source: str = "dashboard") -> str:
        """Call the director to the table (``seat``: who called, None for the whole table).
        Logged like every input; it stays open until answered. A seat that already has an open
        call gets that call's id, nothing new."""
        with self._lock:
            if seat is not None and not 0 <= seat < self.game.players:
                raise self._refused("a call for the director", R_SEAT_DOES_EXIST_AT.error(seat=seat, players=self.game.players))  # fmt: skip
            for call in self.calls.values():
                if call["seat"] == seat:
                    return str(call["id"])
            call_id = uuid.uuid4().hex[:12]
            self._commit("director_called", {"id": call_id, "seat": seat, "source": source})
            return call_id

    def answer_director(self, call_id: str, *, source: str = "dashboard") -> list[dict[str, Any]]:
        """The director answered the call ``call_id``: it leaves the screens, the light stops."""
        with self._lock:
            if call_id not in self.calls:
                raise self._refused("an answer", R_OPEN_CALL_FOR_DIRECTOR.error(call_id=call_id))
            return self._commit("director_answered", {"id": call_id, "source": source})

    def agreeing_sides(self) -> list[str]:
        """The sides that confirm a deal's score: every side with a seat (not a bank)."""
        game = self.game
        seated = {game.side_of(seat) for seat in range(game.players)}
        return [side for side in game.sides if side in seated]

    def agree_deal(
        self,
        *,
        side: str | None = None,
        seat: int | None = None,
        number: int | None = None,
        source: str = "dashboard",
    ) -> bool:
        """``side`` (or the side of ``seat``) confirms the score of finished deal ``number``
        (the last one by default). Logged like every input; False when that side had already
        confirmed it (nothing is logged then)."""
        with self._lock:
            what = "a deal's confirmation"
            if (side is None) == (seat is None):
                raise self._refused(what, R_GIVE_CONFIRMING_SIDE_SEAT.error())
            if seat is not None:
                if not 0 <= seat < self.game.players:
                    raise self._refused(what, R_SEAT_DOES_EXIST_AT.error(seat=seat, players=self.game.players))  # fmt: skip
                side = self.game.side_of(seat)
            sides = self.agreeing_sides()
            if side not in sides:
                raise self._refused(what, R_UNKNOWN_SIDE_SIDES.error(side=side, sides=', '.join(sides)))  # fmt: skip
            if not self.finished:
                raise self._refused(what, R_DEAL_FINISHED_YET.error())
            number = len(self.finished) if number is None else number
            if not 1 <= number <= len(self.finished):
                raise self._refused(what, R_DEAL_FINISHED_FINISHED.error(number=number, finished_count=len(self.finished)))  # fmt: skip
            if side in self.finished[number - 1]["agreed"]:
                return False
            self._commit("deal_agreed", {"deal": number, "side": side, "source": source})
            return True

    # -- the log -------------------------------------------------------------------------------
    def _commit(
        self, kind: str, payload: dict[str, Any], *, entry_id: str | None = None
    ) -> list[dict[str, Any]]:
        with self._lock:
            entry = LogEntry(entry_id or uuid.uuid4().hex, kind, payload)
            stored = self.store.append(entry)
            if stored is None:
                return []
            events = self._apply_entry(stored)
            dicts = [e.to_dict() for e in events]
            self._publish(dicts)
            if events:
                for sink in self.sinks:
                    sink.handle(events)
            return dicts

    def _apply_entry(self, entry: LogEntry) -> list[Event]:
        """Apply one stored entry to the state (also used to replay the log on start)."""
        self.seq = entry.seq
        kind, payload = entry.kind, entry.payload
        events: list[Event] = []
        if kind == "game_started":
            self.game_obj = load_game(payload["spec"])
            self.names = list(payload["names"])
            self.match = Match(self.game_obj)
            self.deal = None
            self.finished = []
            self._held_adjustments = []
            self.log = []
        elif kind == "deal_started":
            self._new_deal(payload, keep=True)
        elif kind == "action":
            if self.deal is None or self.deal.is_over:
                assert self.match is not None
                self._new_deal({"dealer": self.match.dealer, "setup": {}}, keep=True)
            assert self.deal is not None
            events = self.deal.play(Action.from_dict(payload["action"]))
            self._deal_requests.append(payload.get("request"))
            self._deal_crops.append(payload.get("crop"))
            if self.deal.is_over:
                events.extend(self._deal_over())
        elif kind == "undo":
            assert self.deal is not None
            if not self.deal.actions and self.finished:
                # nothing played in this deal yet: the undo reaches into the one before
                self.deal = self.finished[-1]["deal"]
                self._deal_requests = list(self.finished[-1]["requests"])
                self._deal_crops = list(self.finished[-1]["crops"])
                self.deal_setup = dict(self.finished[-1]["setup"])
            if self.deal.is_over and self.finished and self.finished[-1]["deal"] is self.deal:
                self._reopen_deal()
            self.deal.undo()
            request = self._deal_requests.pop() if self._deal_requests else None
            if self._deal_crops:
                self._deal_crops.pop()
            if request is not None:
                self._undone_requests.append(request)
            # whose turn it is again, for the seat lights and the score bars (nothing else in
            # the deal is an event of its own once undone)
            turns: list[Event] = [e for e in self.deal.events if isinstance(e, TurnChanged)]
            events = turns[-1:]
        elif kind == "corrected":
            events = self._apply_correction(payload)
        elif kind == "adjust":
            assert self.match is not None
            # a correction of a partija that the last deal ended judges its end again
            events = self.match.adjust(payload["side"], int(payload["units"]), payload["reason"])
            if self.deal is not None and not self.deal.is_over:
                self.match.dealer = self.deal.dealer  # the sheet names who really deals it
            if self.finished:  # made after that deal: kept if undo reopens it
                self.finished[-1]["adjusted_after"].append(dict(payload))
        elif kind == "director_called":
            seat = payload.get("seat")
            self.calls[payload["id"]] = {"id": payload["id"], "seat": seat,
                                         "source": payload.get("source", ""), "ts": entry.ts}  # fmt: skip
            events = [DirectorCalled(payload["id"], seat, str(payload.get("source", "")))]
        elif kind == "director_answered":
            call = self.calls.pop(payload["id"], None)
            if call is not None:
                events = [DirectorAnswered(payload["id"], call["seat"])]
        elif kind == "deal_agreed":
            record = self.finished[int(payload["deal"]) - 1]
            if payload["side"] not in record["agreed"]:
                record["agreed"].append(payload["side"])
            self.log.append({"kind": "deal_agreed", "deal": payload["deal"],
                             "side": payload["side"]})  # fmt: skip
        elif kind == "pending":
            self.pending[payload["id"]] = payload
        elif kind == "resolved":
            asked = self.pending.pop(payload["id"], None)
            decision = payload.get("decision")
            if asked is not None and decision is not None:
                # the log says what became of the camera's question
                said = {"kind": f"request_{decision}", "seat": asked["seat"]}
                if payload.get("card"):
                    said["card"] = payload["card"]
                self.log.append(said)
        self.log.extend(e.to_dict() for e in events)
        del self.log[:-LOG_KEEP]
        return events

    def _apply_correction(self, payload: Mapping[str, Any]) -> list[Event]:
        assert self.deal is not None
        index, card = int(payload["index"]), Card.parse(payload["card"])
        was = self.deal.actions[index]
        if was.card is None or was.card.code != payload["played"] or was.seat != payload["seat"]:
            raise ValueError(f"action {index} of the deal is {was}, not {payload['played']}")
        again = self._replayed(self.deal, index, card)
        if self.deal.is_over and self.finished and self.finished[-1]["deal"] is self.deal:
            self._reopen_deal()
        self.deal = again
        events: list[Event] = []
        if again.is_over:
            events = self._deal_over()
        self.log.append({"kind": "card_corrected", "seat": was.seat, "was": payload["played"],
                         "card": card.code, "source": payload.get("source", "")})  # fmt: skip
        return events

    def _new_deal(self, payload: Mapping[str, Any], *, keep: bool = False) -> Deal:
        hands = None
        if "hands" in payload:
            hands = {int(s): [Card.parse(c) for c in cs] for s, cs in payload["hands"].items()}
        deal = self.game.new_deal(
            dealer=int(payload["dealer"]), hands=hands, setup=payload.get("setup", {}),
            mode=Mode.TABLE,
        )  # fmt: skip
        if keep:
            self.deal = deal
            self._deal_requests = []
            self._deal_crops = []
            self.deal_setup = dict(payload)
            if self.match is not None:
                self.match.dealer = deal.dealer  # the sheet names who really dealt
        return deal

    def _deal_over(self) -> list[Event]:
        assert self.deal is not None and self.match is not None and self.deal.result is not None
        before = self.match.copy()
        events = self.match.record(self.deal.result)
        snap = self.deal.snapshot()
        self.finished.append(
            {
                "deal": self.deal,
                "number": len(self.finished) + 1,
                "tricks": snap.get("tricks", []),
                "violations": snap.get("violations", []),
                "scores": {
                    s: self.game.format_score(v) for s, v in self.deal.result.scores.items()
                },
                "detail": self.deal.result.detail,
                "said": self.deal.result.said.to_dict() if self.deal.result.said else None,
                "match_before": before,
                "requests": list(self._deal_requests),
                "crops": list(self._deal_crops),
                "setup": dict(self.deal_setup),
                "agreed": [],  # the sides that confirmed the score (deal_agreed)
                "adjusted_after": [],  # the director's adjustments made after this deal
            }
        )
        if self._held_adjustments:  # a reopened deal is over again: its adjustments go back
            for held in self._held_adjustments.pop():
                # the correction, and the partija's end judged again with it (Match.adjust):
                # the deal's own judgement of it gives way
                judged = self.match.adjust(held["side"], int(held["units"]), held["reason"])
                events = [e for e in events if e.kind not in ("partija_over", "match_over")]
                events.extend(judged)
                self.finished[-1]["adjusted_after"].append(held)
        return events

    def _reopen_deal(self) -> None:
        """The last finished deal goes back into play and off the sheet; the director's
        adjustments made after it are held, to go back when it is over again."""
        done = self.finished.pop()
        self.match = done["match_before"]
        self._held_adjustments.append(done["adjusted_after"])

    def set_camera_status(self, status: Mapping[str, Any]) -> None:
        """The camera's state for the dashboard (calibrated, deck, deck profile); live pages
        are told when it changes. Not logged: it is no part of the game."""
        status = dict(status)
        with self._lock:
            if status == self.camera:
                return
            self.camera = status
        self._publish([{"kind": "camera", **status}])

    def alert(self, text: str | Said) -> None:
        """A warning for the dashboard from outside the referee (the camera); not logged.
        A statement (``Said``) is worded in each page's language."""
        self._alert(text)

    def _alert(self, said: str | Said) -> None:
        text = said if isinstance(said, str) else said.text
        item = {"text": text} if isinstance(said, str) else {"text": text, **said.to_dict()}
        self.alerts.append(text)
        self.alert_items.append(item)
        del self.alerts[:-20], self.alert_items[:-20]
        self._publish([{"kind": "alert", **item}])

    # -- outputs -------------------------------------------------------------------------------
    def subscribe(self, maxsize: int = 256) -> Subscription:
        """A mailbox of every later message (see ``kibic.feed.Subscription``: 0 keeps them
        all)."""
        return self.feed.subscribe(maxsize)

    def _publish(self, events: list[dict[str, Any]]) -> None:
        self.feed.publish(lambda: {"seq": self.seq, "events": events, "state": self.snapshot()})

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            game = self.game
            agreeing = self.agreeing_sides()
            return {
                "table_id": self.table_id,
                "game": game.spec,
                "title": game.title or game.name,
                "names": list(self.names),
                "players": game.players,
                "seq": self.seq,
                "sides": list(game.sides),
                "deal_number": len(self.finished)
                + (0 if self.deal is None or self.deal.is_over else 1),
                "deal": self.deal.snapshot() if self.deal is not None else None,
                "match": self.match.to_dict() if self.match is not None else None,
                "pending": [
                    {
                        **{k: p[k] for k in ("id", "seat", "candidates", "confidences")},
                        "profile_card": p.get("profile_card"),
                        "crop": p.get("crop"),
                    }
                    for p in self.pending.values()
                ],
                "calls": [dict(c) for c in self.calls.values()],
                "log": list(self.log),
                "alerts": list(self.alerts),
                "alert_items": [dict(a) for a in self.alert_items],
                "camera": dict(self.camera) if self.camera is not None else None,
                "deals": [
                    {
                        **{k: v for k, v in d.items() if k not in FINISHED_PRIVATE},
                        "agreed": list(d["agreed"]),
                        "confirmed": set(agreeing) <= set(d["agreed"]),
                    }
                    for d in self.finished
                ],  # fmt: skip
                "agreeing_sides": agreeing,
                "crops": self._crops_by_card(),
            }

    def _crops_by_card(self) -> dict[str, str]:
        """The camera's picture of each card played in this deal, by card code (the ids only:
        the bytes are served apart, ``crop``)."""
        if self.deal is None:
            return {}
        return {a.card.code: crop for a, crop in zip(self.deal.actions, self._deal_crops,
                                                     strict=False)
                if a.card is not None and crop is not None}  # fmt: skip

    def state_digest(self) -> dict[str, Any]:
        """The replayable state without wall-clock noise (used to compare runs)."""
        snap = self.snapshot()
        snap.pop("alerts", None)
        snap.pop("alert_items", None)
        snap.pop("camera", None)
        snap["calls"] = [{k: v for k, v in c.items() if k != "ts"} for c in snap["calls"]]
        return snap

    # -- exports -------------------------------------------------------------------------------
    def export_transcript(self) -> dict[str, Any]:
        with self._lock:
            deals = [d["deal"].to_transcript() for d in self.finished]
            if self.deal is not None and not self.deal.is_over and self.deal.actions:
                deals.append(self.deal.to_transcript())
            return {
                "game": self.game.name,
                "options": self.game.options.non_default(),
                "names": list(self.names),
                "deals": deals,
            }

    def export_csv(self) -> str:
        """The score sheet as CSV (``kibic.sheet_csv``)."""
        with self._lock:
            assert self.match is not None
            return sheet_csv(self.match, self.names)

    def close(self) -> None:
        self.store.close()


def action_kinds() -> list[str]:
    return [t.value for t in ActionType]


Callback = Callable[[dict[str, Any]], None]
