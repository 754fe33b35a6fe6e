"""Ulti scoring (RULES.md §13.6, §13.9, §13.10): every bid, the silent bonuses, marriages,
kontra chains up to ×64 per defender, both settlement modes.

The layouts are chosen so that the play is forced; ``finish`` plays the soloist's script and
otherwise the first legal card (cards sorted by suit, then rank), so every outcome below is
worked out by hand from the hands.
"""

from __future__ import annotations

import pytest

from referee.actions import Action, ActionType
from referee.cards import parse_cards
from referee.deal import Mode
from referee.errors import ActionError
from referee.games.ulti_deal import UltiDeal
from referee.registry import load_game

# S1: the soloist (seat 1, forehand) holds every spade, AH and AC; he discards 7H 7C.
S1 = ("AS TS KS QS JS 9S 8S 7S AH AC 7H 7C", "AD TD KD QD JD 9D 8D 7D TH KH",
      "QH JH 9H 8H TC KC QC JC 9C 8C")  # fmt: skip
S1_LEADS = "AS TS KS QS JS 9S 8S AH AC 7S"  # 7S kept for the last trick
# U1: as S1 but the 7S is with seat 2; KH loses to seat 2's TH.
U1 = ("AS TS KS QS JS 9S 8S AH AC KH 7H 7C", "7S AD TD KD QD JD 9D 8D 7D TH",
      "QH JH 9H 8H TC KC QC JC 9C 8C")  # fmt: skip
# C20: the soloist holds KH QH (20) and wins every trick (90 points).
C20 = ("AS TS KS QS JS 9S AH TH KH QH 8S 7S", "AD TD KD QD JD 9D 8D 7D JH 9H",
       "AC TC KC QC JC 9C 8C 7C 8H 7H")  # fmt: skip


def swap_suits(text: str, a: str = "S", b: str = "H") -> str:
    table = {a: b, b: a}
    return " ".join(c[:-1] + table.get(c[-1], c[-1]) for c in text.split())


def start(
    bid: str, hands: tuple[str, str, str] = S1, *, discards: str = "7H 7C",
    trump: str | None = None, spec: str = "ulti", mode: Mode = Mode.STRICT,
) -> UltiDeal:  # fmt: skip
    """Dealer 0; the forehand (seat 1) bids, discards, both others pass."""
    game = load_game(spec)
    h = {1: parse_cards(hands[0]), 2: parse_cards(hands[1]), 0: parse_cards(hands[2])}
    deal = game.new_deal(dealer=0, hands=h, setup={"dealing": "cut"}, mode=mode)
    assert isinstance(deal, UltiDeal)
    deal.play(Action(1, ActionType.BID, value=bid))
    deal.play(Action(1, ActionType.EXCHANGE, cards=parse_cards(discards)))
    deal.play(Action(2, ActionType.PASS))
    deal.play(Action(0, ActionType.PASS))
    if trump:
        deal.play(Action(1, ActionType.CONTRACT, value=trump))
    return deal


def say(deal: UltiDeal, seat: int, kind: str, value: str) -> None:
    deal.play(Action(seat, ActionType(kind), value=value))


def finish(deal: UltiDeal, script: str = "", *, log: str = "") -> UltiDeal:
    """Play the soloist's ``script`` (else the first legal card), or a full ``log``."""
    order = list(parse_cards(script))
    full = list(parse_cards(log))
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        if full:
            card = full.pop(0)
        elif seat == deal.soloist and order:
            card = order.pop(0)
        else:
            card = deal.legal_plays()[0]
        deal.play(Action.play(seat, card))
    return deal


def scores(deal: UltiDeal) -> tuple[dict[str, int], str]:
    assert deal.result is not None
    return deal.result.scores, deal.result.detail


# -- every bid -----------------------------------------------------------------------------------
def test_passz_with_40_silent_100_ulti_and_durchmars() -> None:
    deal = start("passz", trump="S")
    say(deal, 1, "announce", "40")
    finish(deal, S1_LEADS)
    # 90 + 40 = 130: the silent 100 doubles Passz (2); 7S wins the last trick (+2); all
    # tricks (+3): 7 from each defender
    assert scores(deal) == (
        {"0": -7, "1": 14, "2": -7},
        "seat 1 passz: passz won 2/2; silent ulti won 2/2; silent durchmars won 3/3",
    )


def test_40_100_ulti_durchmars_all_won() -> None:
    deal = start("40-100-ulti-durchmars", trump="S")
    say(deal, 1, "announce", "40")
    finish(deal, S1_LEADS)
    assert scores(deal) == (
        {"0": -14, "1": 28, "2": -14},
        "seat 1 40-100-ulti-durchmars: 40-100 won 4/4; ulti won 4/4; durchmars won 6/6",
    )


def test_40_100_fails_without_the_announced_40() -> None:
    deal = start("40-100", trump="S")
    finish(deal, S1_LEADS)
    assert scores(deal)[1] == (
        "seat 1 40-100: 40-100 lost -4/-4; silent ulti won 2/2; silent durchmars won 3/3"
    )
    assert scores(deal)[0] == {"0": -1, "1": 2, "2": -1}


def test_40_100_only_the_40_may_be_announced() -> None:
    deal = start("40-100", trump="S")
    with pytest.raises(ActionError, match="only the 40"):
        say(deal, 1, "announce", "40+20")


def test_20_100_won_with_one_twenty_and_90_card_points() -> None:
    deal = start("20-100", C20, discards="8S 7S", trump="S")
    say(deal, 1, "announce", "20")
    finish(deal, "AS TS KS QS JS 9S AH TH KH QH")
    assert scores(deal) == (
        {"0": -11, "1": 22, "2": -11},
        "seat 1 20-100: 20-100 won 8/8; silent durchmars won 3/3",
    )
    assert deal.points() == (90, 0, 20, 0)


def test_herc_20_100_doubles() -> None:
    hands = tuple(swap_suits(h) for h in C20)
    deal = start("herc-20-100", hands, discards="8H 7H")  # type: ignore[arg-type]
    assert deal.trump is not None and deal.trump.value == "H"
    say(deal, 1, "announce", "20")
    finish(deal, swap_suits("AS TS KS QS JS 9S AH TH KH QH"))
    assert scores(deal)[1] == "seat 1 herc-20-100: 20-100 won 16/16; silent durchmars won 6/6"


def test_announced_ulti_fails_without_the_seven_u1() -> None:
    deal = start("ulti", U1, trump="S")
    finish(deal)
    assert scores(deal) == (
        {"0": 7, "1": -14, "2": 7},
        "seat 1 ulti: passz won 1/1; ulti lost -8/-8",
    )


def test_ulti_rekontra_by_the_right_defender_u2() -> None:
    deal = start("ulti", U1, trump="S")
    say(deal, 2, "kontra", "ulti")  # seat 2 is the right defender (next after the soloist)
    say(deal, 1, "kontra", "ulti")  # rekontra
    finish(deal)
    assert scores(deal) == (
        {"0": 7, "1": -26, "2": 19},
        "seat 1 ulti: passz won 1/1; ulti lost -20/-8",
    )
    assert deal.snapshot()["kontra"] == {"ulti": {"2": "rekontra"}}


def test_herc_ulti_fails_with_rekontra_u3() -> None:
    hands = tuple(swap_suits(h) for h in U1)
    deal = start("herc-ulti", hands, discards=swap_suits("7H 7C"))  # type: ignore[arg-type]
    say(deal, 2, "kontra", "ulti")
    say(deal, 1, "kontra", "ulti")
    finish(deal)
    assert scores(deal)[1] == "seat 1 herc-ulti: passz lost -2/-2; ulti lost -40/-16"


def test_herc_passz_doubles_every_silent_bonus() -> None:
    hands = tuple(swap_suits(h) for h in S1)
    deal = start("herc-passz", hands, discards=swap_suits("7H 7C"))  # type: ignore[arg-type]
    say(deal, 1, "announce", "40")
    finish(deal, swap_suits(S1_LEADS))
    assert scores(deal) == (
        {"0": -14, "1": 28, "2": -14},
        "seat 1 herc-passz: passz won 4/4; silent ulti won 4/4; silent durchmars won 6/6",
    )


@pytest.mark.parametrize(
    ("bid", "expected"),
    [
        ("betli", "betli lost -5/-5"),
        ("herc-betli", "betli lost -10/-10"),
        ("uver-betli", "uver-betli lost -20/-20"),
        ("durchmars", "durchmars won 6/6"),
        ("herc-durchmars", "durchmars won 12/12"),
        ("open-durchmars", "open-durchmars won 24/24"),
    ],
)
def test_no_trump_bids(bid: str, expected: str) -> None:
    deal = start(bid)
    assert deal.trump is None
    finish(deal, "AS KS QS JS TS 9S 8S AH AC 7S")
    detail = scores(deal)[1]
    assert detail == f"seat 1 {bid}: {expected}"
    amount = int(expected.split()[-1].split("/")[0])
    assert scores(deal)[0] == {"0": -amount, "1": 2 * amount, "2": -amount}


def test_betli_won_when_the_soloist_takes_no_trick() -> None:
    # the soloist holds only low cards; the defenders must follow and beat nothing he leads
    hands = ("7S 8S 9S 7H 8H 9H 7D 8D 9D 7C TS TH", "AS KS QS AH KH QH AD KD QD AC",
             "JS JH JD TD KC QC JC TC 9C 8C")  # fmt: skip
    deal = start("betli", hands, discards="TS TH")
    finish(deal)  # seat 2 takes every trick; the soloist always follows with his lowest card
    assert scores(deal) == ({"0": -5, "1": 10, "2": -5}, "seat 1 betli: betli won 5/5")


def test_open_durchmars_with_herc_trump_doubles_the_others_only() -> None:
    hands = tuple(swap_suits(h) for h in S1)
    deal = start("herc-40-100-open-durchmars", hands, discards=swap_suits("7H 7C"))  # type: ignore[arg-type]
    say(deal, 1, "announce", "40")
    finish(deal, swap_suits(S1_LEADS))
    assert scores(deal)[1] == (
        "seat 1 herc-40-100-open-durchmars: 40-100 won 8/8; open-durchmars won 24/24; "
        "silent ulti won 4/4"
    )


# -- silent Ulti from real deals ----------------------------------------------------------------
SILENT_WON = dict(
    hands=("7H 8S 9H AS QS JH 7C TS 8C 7S KC TH", "JC 9D AC KD 8H 7D 8D QH AH QC",
           "KH JS AD JD QD 9S TD KS 9C TC"),
    discards="7C 8C",
    log="KC AC 9C JC TC 8S 7H 8H KH TD TS 7D 9H QH 9S JD QS 8D TH AH JS QD AS 9D JH QC KS AD 7S KD",
)  # fmt: skip
SILENT_LOST = dict(
    hands=("TS 9C TD QH 7C TC KD AS KH TH 7S QC", "8D KC QD 8C JD 7H 8H KS AD 7D",
           "AH JC QS 8S 9H JS 9S AC JH 9D"),
    discards="7C 9C",
    log="TC 8C AC JC QC KC 7D 9D TD KD AD 8S 9H TH 7H QH 8H AH JH KH KS 8D 9S TS AS JD JS 7S QD QS",
)  # fmt: skip


def test_silent_ulti_won_last_trick_with_the_trump_seven() -> None:
    deal = start("passz", SILENT_WON["hands"], discards=SILENT_WON["discards"], trump="S")  # type: ignore[arg-type]
    finish(deal, log=SILENT_WON["log"])
    assert deal.snapshot()["tricks"][-1]["plays"] == [[0, "AD"], [1, "7S"], [2, "KD"]]
    assert scores(deal) == (
        {"0": -3, "1": 6, "2": -3}, "seat 1 passz: passz won 1/1; silent ulti won 2/2",
    )  # fmt: skip


def test_silent_ulti_lost_costs_four() -> None:
    deal = start("passz", SILENT_LOST["hands"], discards=SILENT_LOST["discards"], trump="S")  # type: ignore[arg-type]
    finish(deal, log=SILENT_LOST["log"])
    assert deal.snapshot()["tricks"][-1]["plays"] == [[1, "7S"], [2, "QD"], [0, "QS"]]
    assert scores(deal) == (
        {"0": 5, "1": -10, "2": 5}, "seat 1 passz: passz lost -1/-1; silent ulti lost -4/-4",
    )  # fmt: skip


# -- marriages -----------------------------------------------------------------------------------
def test_defenders_marriages_count_once_they_win_a_trick() -> None:
    deal = start("passz", U1, trump="S")
    deal.play(Action.play(1, "AS"))
    say(deal, 2, "announce", "20")  # KD QD
    deal.play(Action.play(2, "7S"))
    say(deal, 0, "announce", "20")  # KC QC
    finish(deal)
    assert deal.tricks_won(2) + deal.tricks_won(0) == 1  # seat 2's TH takes the KH
    # soloist 80 card points against 10 + two validated 20s
    assert deal.points() == (80, 10, 0, 40)
    assert scores(deal)[1] == "seat 1 passz: passz won 1/1"


def test_defenders_marriages_are_void_without_a_trick() -> None:
    deal = start("passz", trump="S")
    deal.play(Action.play(1, "AS"))
    say(deal, 2, "announce", "20")  # KD QD, but the defenders win no trick
    finish(deal, S1_LEADS[3:])
    assert deal.points() == (90, 0, 0, 0)


def test_false_marriage_is_proven_at_once_with_known_hands() -> None:
    deal = start("ulti", U1, trump="S", mode=Mode.TABLE)
    deal.play(Action.play(1, "AS"))
    deal.play(Action.play(2, "7S"))
    say(deal, 0, "announce", "20+20")  # seat 0 holds only KC QC
    (violation,) = deal.violations
    assert (violation.seat, violation.rule) == (0, "false-marriage")
    assert violation.evidence == "seat 0 announced 20+20 but showed marriages: KC+QC"
    # a defender's offence: every component of the soloist succeeds (AMBIGUITY 69)
    assert scores(deal)[0] == {"0": -5, "1": 10, "2": -5}


def test_no_marriages_in_no_trump_contracts() -> None:
    deal = start("durchmars")
    with pytest.raises(ActionError, match="no-trump"):
        say(deal, 1, "announce", "20")


def test_marriages_only_with_the_first_trick_card() -> None:
    deal = start("passz", trump="S")
    deal.play(Action.play(1, "AS"))
    with pytest.raises(ActionError, match="first-trick card"):
        say(deal, 1, "announce", "40")
    with pytest.raises(ActionError, match="first-trick card"):
        say(deal, 0, "announce", "20")  # seat 2 plays before seat 0


# -- kontra --------------------------------------------------------------------------------------
def test_kontra_chain_to_64_on_one_component() -> None:
    deal = start("40-100-ulti-durchmars", trump="S")
    say(deal, 1, "announce", "40")
    for seat in (2, 1, 2, 1, 2, 1):
        say(deal, seat, "kontra", "ulti")
    assert deal.snapshot()["kontra"] == {"ulti": {"2": "fedakontra"}}
    assert deal.multiplier(deal.bid.components[1], 2) == 64  # type: ignore[union-attr]
    with pytest.raises(ActionError):
        say(deal, 2, "kontra", "ulti")
    with pytest.raises(ActionError, match="no kontra on ulti to answer"):
        say(deal, 1, "kontra", "ulti")
    finish(deal, S1_LEADS)
    assert scores(deal) == (
        {"0": -14, "1": 280, "2": -266},
        "seat 1 40-100-ulti-durchmars: 40-100 won 4/4; ulti won 256/4; durchmars won 6/6",
    )


def test_only_one_defender_gives_kontra_by_default() -> None:
    deal = start("ulti", U1, trump="S")
    say(deal, 2, "kontra", "passz")
    deal.play(Action.play(1, "AS"))
    deal.play(Action.play(2, "7S"))
    with pytest.raises(ActionError, match="cannot give kontra now"):
        say(deal, 0, "kontra", "ulti")


def test_left_defender_may_kontra_when_the_right_one_did_not() -> None:
    deal = start("ulti", U1, trump="S")
    with pytest.raises(ActionError, match="cannot give kontra now"):
        say(deal, 0, "kontra", "ulti")  # the right defender has not played yet
    deal.play(Action.play(1, "AS"))
    deal.play(Action.play(2, "7S"))
    say(deal, 0, "kontra", "ulti")
    say(deal, 1, "kontra", "ulti")
    finish(deal)
    assert scores(deal)[1] == "seat 1 ulti: passz won 1/1; ulti lost -8/-20"


def test_each_defender_doubles_separately_with_kontra_by_both() -> None:
    deal = start("ulti", U1, trump="S", spec="ulti(kontra-by-both=true)")
    say(deal, 2, "kontra", "ulti")
    deal.play(Action.play(1, "AS"))
    deal.play(Action.play(2, "7S"))
    say(deal, 0, "kontra", "passz,ulti")
    say(deal, 1, "kontra", "ulti")  # rekontra answers both defenders' kontra on ulti
    finish(deal)
    assert scores(deal)[1] == "seat 1 ulti: passz won 1/2; ulti lost -20/-20"


def test_doublings_end_before_trick_two() -> None:
    deal = start("ulti", U1, trump="S")
    say(deal, 2, "kontra", "ulti")
    for card in ("AS", "7S", "QH"):
        deal.play(Action.play(deal.to_act or 0, card))
    say(deal, 1, "kontra", "ulti")  # still before the first card of trick 2
    say(deal, 2, "kontra", "ulti")  # supkontra
    deal.play(Action.play(1, "TS"))
    with pytest.raises(ActionError, match="before trick 2"):
        say(deal, 1, "kontra", "ulti")


def test_kontra_names_components_of_the_bid() -> None:
    deal = start("ulti", U1, trump="S")
    with pytest.raises(ActionError, match="no such component"):
        say(deal, 2, "kontra", "betli")
    with pytest.raises(ActionError, match="no kontra on ulti to answer"):
        say(deal, 1, "kontra", "ulti")


# -- settlement modes and the A♥ ---------------------------------------------------------------
def test_writing_mode_each_side_writes_its_gains() -> None:
    deal = finish(start("ulti", U1, trump="S", spec="ulti(settlement=writing)"))
    # the soloist writes the Passz he won from both; each defender writes the failed Ulti
    assert scores(deal)[0] == {"0": 8, "1": 2, "2": 8}


def test_ace_of_hearts_holder_after_the_auction() -> None:
    deal = finish(start("passz", trump="S"), S1_LEADS)
    assert deal.result is not None and deal.result.extra["ace_of_hearts"] == 1
    talon = finish(start("passz", S1, discards="AH 7C", trump="S"))
    # A♥ in the soloist's talon: he held it (AMBIGUITY 61 b); its 10 points go to the defenders
    assert talon.result is not None and talon.result.extra["ace_of_hearts"] == 1
    assert talon.talon_cards() == list(parse_cards("AH 7C"))
    assert sum(talon.card_points_by_side().values()) == 80


def test_claim_is_recorded_for_the_partija() -> None:
    deal = start("passz", trump="S")
    say(deal, 0, "claim", "ne-deli")
    with pytest.raises(ActionError, match="deli"):
        say(deal, 0, "claim", "maybe")
    finish(deal, S1_LEADS)
    assert deal.result is not None and deal.result.extra["claims"] == [[0, "ne-deli"]]


# -- Betli and the no-trump Durchmars end at the decisive trick ---------------------------------
LOW = ("7S 8S 9S 7H 8H 9H 7D 8D 9D 7C TS TH", "AS KS QS AH KH QH AD KD QD AC",
       "JS JH JD TD KC QC JC TC 9C 8C")  # fmt: skip


@pytest.mark.parametrize("bid", ["betli", "herc-betli", "uver-betli"])
def test_betli_ends_at_the_soloists_first_trick(bid: str) -> None:
    deal = start(bid)
    finish(deal, "AS")  # the soloist's AS wins trick 1: the contract is lost there
    assert deal.is_over and len(deal.tricks) == 1 and deal.trick is None
    amount = {"betli": 5, "herc-betli": 10, "uver-betli": 20}[bid]
    assert scores(deal)[0] == {"0": amount, "1": -2 * amount, "2": amount}


@pytest.mark.parametrize("bid", ["durchmars", "herc-durchmars", "open-durchmars"])
def test_no_trump_durchmars_ends_at_the_first_lost_trick(bid: str) -> None:
    deal = start(bid, LOW, discards="TS TH")
    finish(deal)  # the soloist leads his lowest card and seat 2 wins trick 1
    assert deal.is_over and len(deal.tricks) == 1 and deal.tricks[0].winner == 2
    amount = {"durchmars": 6, "herc-durchmars": 12, "open-durchmars": 24}[bid]
    assert scores(deal) == (
        {"0": amount, "1": -2 * amount, "2": amount},
        f"seat 1 {bid}: {bid.removeprefix('herc-')} lost -{amount}/-{amount}",
    )


def test_a_durchmars_with_trump_is_played_to_the_last_trick() -> None:
    deal = start("ulti-durchmars", LOW, discards="TS TH", trump="S")
    finish(deal)  # the Durchmars is lost at trick 1, but the Passz and the Ulti are still open
    assert deal.tricks[0].winner != 1 and len(deal.tricks) == 10
