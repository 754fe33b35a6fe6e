"""The Kibic referee: pure rules, no I/O. Cards, decks, seats, games, deals, proofs, scores."""

from referee.actions import Action, ActionType
from referee.cards import Card, Deck, Rank, Suit, parse_cards
from referee.deal import Deal, DealResult, Mode, Phase
from referee.errors import ActionError, CardError, IllegalPlay, OptionsError, RefereeError
from referee.game import Game, GameOptions
from referee.match import Match
from referee.registry import all_games, find_game, load_game

__all__ = [
    "Action", "ActionType", "Card", "Deck", "Rank", "Suit", "parse_cards", "Deal", "DealResult",
    "Mode", "Phase", "ActionError", "CardError", "IllegalPlay", "OptionsError", "RefereeError",
    "Game", "GameOptions", "Match", "all_games", "find_game", "load_game",
]  # fmt: skip
