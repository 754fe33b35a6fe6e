"""The table's configuration: one TOML file, validated into frozen typed objects.

Every error names the section and key that is wrong (``ConfigError``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.cards import Deck
from referee.errors import CardError, RefereeError
from referee.registry import load_game

# the director's password lives with the dashboard that checks it; named here for the CLI
from web.auth import PBKDF2_ROUNDS as PBKDF2_ROUNDS
from web.auth import hash_password as hash_password
from web.auth import verify_password as verify_password


class ConfigError(ValueError):
    """The configuration file is missing, malformed, or has a wrong value (named)."""


CAMERA_SOURCES = ("none", "synthetic", "picamera2", "opencv", "video", "folder")
LIGHT_KINDS = ("none", "sim", "gpio", "serial")


@dataclass(frozen=True)
class CameraConfig:
    source: str = "none"
    device: int = 0
    path: str = ""
    deck: str = "french-52"
    corners: tuple[tuple[float, float], ...] = ()
    deck_profile: str = ""  # a deck profile (kibic vision enrol); "" for none
    # the least confidence a card is committed at, without asking; None: the table
    # classifier's own (``commit_threshold`` in its labels file), else the tracker's default
    commit_threshold: float | None = None
    # cards also found and read by their corner indices (``vision.tracker_index``): True,
    # False, or None for the default of the deck (``kibic.camera.index_cards_on``)
    index_cards: bool | None = None
    # cards also found by the learned detector at rest (``vision.tracker_learned``), any deck;
    # None for the default (``vision.tracker_learned.DEFAULT_ON``)
    learned_cards: bool | None = None
    # a card read below the commit threshold is read again by the still-photo classifier
    # (``vision.tracker``, experiment 38); None for the default (``kibic.camera.second_opinion``)
    second_opinion: bool | None = None
    # with the second opinion, a card about to be committed by its face is read by the
    # still-photo classifier too and asked when it reads another card (experiment 51; off)
    second_check: bool = False
    # what the tracker takes for a hand (``vision.hands.HandCheck``): "skin", any skin-coloured
    # region; "table", one that is neither the table's own colour nor a card's print
    hand_check: str = "table"
    # steps of the reading at rest (corner indices, learned detector) made a frame; None for the
    # tracker's default (``vision.tracker_config.TrackerConfig.rest_steps_per_frame``,
    # experiment 80); 1 on a board too slow for two in a frame's time
    rest_steps_per_frame: int | None = None
    # frames in motion a card the table cannot decide there (its corners read no card, or
    # contest its face) waits for the picture to rest before it is asked; None for the tracker's
    # default (30, experiments 134 and 134b); 0: it waits for the rest however long it takes
    ask_after_frames: int | None = None


@dataclass(frozen=True)
class LightsConfig:
    kind: str = "none"
    serial_url: str = "/dev/ttyACM0"
    pins: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class WebConfig:
    host: str = "127.0.0.1"
    port: int = 8000
    admin_password_hash: str = ""
    language: str = "sr"
    max_body_kb: int = 64  # request bodies over this are refused (413) unread


@dataclass(frozen=True)
class TableConfig:
    table_id: str = "table-1"
    game: str = "veliki-satir"
    names: tuple[str, ...] = ()
    storage: str = "var/kibic.sqlite3"
    camera: CameraConfig = CameraConfig()
    lights: LightsConfig = LightsConfig()
    web: WebConfig = WebConfig()


def _get(section: dict[str, Any], key: str, kind: type, where: str, default: Any) -> Any:
    if key not in section:
        return default
    value = section[key]
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ConfigError(f"{where}.{key}: expected {kind.__name__}, got {value!r}")
    return value


def _section(data: dict[str, Any], name: str) -> dict[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, dict):
        raise ConfigError(f"[{name}] must be a table")
    return value


def parse_config(data: dict[str, Any], *, base: Path | None = None) -> TableConfig:
    known = {"table", "storage", "camera", "calibration", "lights", "web"}
    unknown = set(data) - known
    if unknown:
        raise ConfigError(f"unknown section(s) {sorted(unknown)} (known: {sorted(known)})")
    table = _section(data, "table")
    game = _get(table, "game", str, "table", "veliki-satir")
    try:
        players = load_game(game).players
    except RefereeError as exc:
        raise ConfigError(f"table.game: {exc}") from None
    names = tuple(_get(table, "names", list, "table", [f"Seat {i + 1}" for i in range(players)]))
    if len(names) != players or not all(isinstance(n, str) and n.strip() for n in names):
        raise ConfigError(f"table.names: {game} needs {players} non-empty names, got {list(names)}")
    storage = _section(data, "storage")
    path = _get(storage, "path", str, "storage", "var/kibic.sqlite3")
    if base is not None and not Path(path).is_absolute():
        path = str(base / path)
    cam = _section(data, "camera")
    source = _get(cam, "source", str, "camera", "none")
    if source not in CAMERA_SOURCES:
        raise ConfigError(f"camera.source: {source!r} is not one of {', '.join(CAMERA_SOURCES)}")
    deck_name = _get(cam, "deck", str, "camera", "french-52")
    try:
        deck_name = Deck.parse(deck_name).value
    except CardError as exc:
        raise ConfigError(f"camera.deck: {exc}") from None
    profile = _get(cam, "deck_profile", str, "camera", "")
    if profile:
        if base is not None and not Path(profile).is_absolute():
            profile = str(base / profile)
        _check_profile(profile, deck_name)
    threshold = _get(cam, "commit_threshold", float, "camera", None)
    if threshold is not None and not 0.0 < threshold <= 1.0:
        raise ConfigError(f"camera.commit_threshold: {threshold} is not in (0, 1]")
    index_cards = _get(cam, "index_cards", bool, "camera", None)
    if index_cards:
        from vision.labels import index_readable

        if not index_readable(Deck.parse(deck_name)):
            raise ConfigError(f"camera.index_cards: the corner-index reader reads French-suited "
                              f"decks of one copy of each card, not {deck_name}")  # fmt: skip
    learned_cards = _get(cam, "learned_cards", bool, "camera", None)
    second_opinion = _get(cam, "second_opinion", bool, "camera", None)
    second_check = _get(cam, "second_check", bool, "camera", False)
    hand_check = _get(cam, "hand_check", str, "camera", "table")
    from vision.hands import HandCheck

    if hand_check not in {c.value for c in HandCheck}:
        raise ConfigError(f"camera.hand_check: {hand_check!r} is not one of "
                          f"{', '.join(c.value for c in HandCheck)}")  # fmt: skip
    rest_steps = _get(cam, "rest_steps_per_frame", int, "camera", None)
    if rest_steps is not None and not 1 <= rest_steps <= 16:
        raise ConfigError(f"camera.rest_steps_per_frame: {rest_steps} is not between 1 and 16")
    ask_after = _get(cam, "ask_after_frames", int, "camera", None)
    if ask_after is not None and not 0 <= ask_after <= 100_000:
        raise ConfigError(f"camera.ask_after_frames: {ask_after} is not between 0 and 100000")
    calib = _section(data, "calibration")
    corners_raw = _get(calib, "corners", list, "calibration", [])
    if corners_raw and (
        len(corners_raw) != 4 or not all(isinstance(p, list) and len(p) == 2 for p in corners_raw)
    ):
        raise ConfigError("calibration.corners: expected four [x, y] points")
    corners = tuple((float(p[0]), float(p[1])) for p in corners_raw)
    lights = _section(data, "lights")
    kind = _get(lights, "kind", str, "lights", "none")
    if kind not in LIGHT_KINDS:
        raise ConfigError(f"lights.kind: {kind!r} is not one of {', '.join(LIGHT_KINDS)}")
    web = _section(data, "web")
    port = _get(web, "port", int, "web", 8000)
    if not 0 < port < 65536:
        raise ConfigError(f"web.port: {port} is not a TCP port")
    language = _get(web, "language", str, "web", "sr")
    if language not in ("sr", "en"):
        raise ConfigError(f"web.language: {language!r} (expected 'sr' or 'en')")
    max_body_kb = _get(web, "max_body_kb", int, "web", 64)
    if not 1 <= max_body_kb <= 100 * 1024:
        raise ConfigError(f"web.max_body_kb: {max_body_kb} is not between 1 and 102400")
    pw_hash = _get(web, "admin_password_hash", str, "web", "")
    if pw_hash and not pw_hash.startswith("pbkdf2_sha256$"):
        raise ConfigError(
            "web.admin_password_hash: expected a pbkdf2_sha256$... hash (kibic hash-password)"
        )
    if pw_hash:
        _check_rounds(pw_hash)
    return TableConfig(
        table_id=_get(table, "id", str, "table", "table-1"),
        game=game,
        names=names,
        storage=path,
        camera=CameraConfig(
            source=source,
            device=_get(cam, "device", int, "camera", 0),
            path=_get(cam, "path", str, "camera", ""),
            deck=deck_name,
            corners=corners,
            deck_profile=profile,
            commit_threshold=threshold,
            index_cards=index_cards,
            learned_cards=learned_cards,
            second_opinion=second_opinion,
            second_check=second_check,
            hand_check=hand_check,
            rest_steps_per_frame=rest_steps,
            ask_after_frames=ask_after,
        ),
        lights=LightsConfig(
            kind=kind,
            serial_url=_get(lights, "serial_url", str, "lights", "/dev/ttyACM0"),
            pins=_get(lights, "pins", dict, "lights", {}),
        ),
        web=WebConfig(
            host=_get(web, "host", str, "web", "127.0.0.1"),
            port=port,
            admin_password_hash=pw_hash,
            language=language,
            max_body_kb=max_body_kb,
        ),
    )


MIN_PBKDF2_ROUNDS = 100_000  # fewer make a stolen config's hash cheap to crack
MAX_PBKDF2_ROUNDS = 2_000_000  # more make each password check a burden on the table


def _check_rounds(pw_hash: str) -> None:
    parts = pw_hash.split("$")
    rounds = parts[1] if len(parts) == 4 else ""
    if not rounds.isdigit() or len(rounds) > 9:
        raise ConfigError("web.admin_password_hash: expected pbkdf2_sha256$rounds$salt$hash")
    if not MIN_PBKDF2_ROUNDS <= int(rounds) <= MAX_PBKDF2_ROUNDS:
        raise ConfigError(
            f"web.admin_password_hash: {int(rounds):,} PBKDF2 rounds; a table needs between "
            f"{MIN_PBKDF2_ROUNDS:,} and {MAX_PBKDF2_ROUNDS:,} (kibic hash-password makes "
            f"{PBKDF2_ROUNDS:,})"
        )


def _check_profile(path: str, deck_name: str) -> None:
    """A deck profile must exist, be one, be of the table's deck, and hold the embeddings of
    the table classifier (when it says whose they are)."""
    from vision.deck_profile import DeckProfile, ProfileError
    from vision.recognizer import DEFAULT_MODEL, model_fingerprint

    try:
        profile = DeckProfile.load(path)
    except ProfileError as exc:
        raise ConfigError(
            f"camera.deck_profile: {exc} (make one with kibic vision enrol)"
        ) from None
    if profile.deck.value != deck_name:
        raise ConfigError(f"camera.deck_profile: {path} is a profile of the "
                          f"{profile.deck.value} deck, but camera.deck is {deck_name!r}")  # fmt: skip
    if (
        profile.model
        and DEFAULT_MODEL.is_file()
        and profile.model != model_fingerprint(DEFAULT_MODEL)
    ):
        raise ConfigError(f"camera.deck_profile: {path} holds the embeddings of classifier "
                          f"{profile.model}, not of the table classifier {DEFAULT_MODEL.name} "
                          f"({model_fingerprint(DEFAULT_MODEL)}): enrol the deck again "
                          f"(kibic vision enrol)")  # fmt: skip


def load_config(path: str | Path) -> TableConfig:
    file = Path(path)
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{file}: cannot read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{file}: malformed TOML: {exc}") from None
    return parse_config(data, base=file.parent)
