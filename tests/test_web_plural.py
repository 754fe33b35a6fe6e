"""Serbian numbers agree with their nouns in what the table says (``web.plural``): the referee's
statements and the pages' strings name 1 karta, 3 karte, 12 karata."""

from __future__ import annotations

import pytest

from web.i18n import t
from web.i18n_referee import word
from web.plural import fill


@pytest.mark.parametrize(("size", "text"), [(1, "1 kartu"), (3, "3 karte"), (5, "5 karata"),
                                            (12, "12 karata"), (22, "22 karte")])  # fmt: skip
def test_a_fan_of_any_size_is_named_in_the_right_form(size: int, text: str) -> None:
    said = {"code": "satir.fan_has_cards", "facts": {"action": "x", "fan_size": size}}
    assert word(said, "sr") == f"x: lepeza ima {text}"
    assert str(size) in word(said, "en")  # the English template keeps its plain field


def test_points_and_rounds_agree_in_a_ruzicka_tally() -> None:
    said = {"code": "ruzicka.tally", "facts": {"side": "A", "cards": 21, "rounds": 3}}
    assert word(said, "sr") == "A: 21 poen od karata + 3 kruga"


def test_the_camera_line_counts_the_deck_in_the_right_form() -> None:
    line = t("sr", "camera_profile", enrolled=30, of=32, learnt=3)
    assert "od 32 karte" in line
    assert "od 53 karte" in t("sr", "camera_profile", enrolled=1, of=53, learnt=0)
    assert "od 40 karata" in t("sr", "camera_profile", enrolled=1, of=40, learnt=0)


def test_a_count_spec_with_other_than_three_forms_is_refused() -> None:
    with pytest.raises(ValueError, match=r"three \(one\|few\|many\), not 'karta\|karte'"):
        fill("{n:karta|karte}", {"n": 2})


def test_a_count_the_verb_would_have_to_agree_with_stands_in_brackets() -> None:
    said = {"code": "ruzicka.lay_down_all_cards", "facts": {"action": "x", "counts": 3}}
    assert word(said, "sr") == "x: spustite sve karte iz ruke (3 karte)"
    line = t("sr", "cfg_camera_deck_extra", camera="french-53", count=1, game="Ružička",
             deck="piquet-32", cards="JK")  # fmt: skip
    assert "ima karte koje igra Ružička ne koristi (1 karta; njen špil je piquet-32" in line
