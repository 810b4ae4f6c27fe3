"""The Canasta rules engine: pure, immutable, no I/O and no randomness of its own.

Typical use::

    from canasta_tui.engine import CLASSIC, new_match, legal_actions, play, view_for
    m = new_match(CLASSIC, shuffled_deck)
    m = play(m, legal_actions(m.state)[0])
"""

from . import record
from .actions import Action, ActionKind, parse_action
from .cards import Card, card, card_text, cards_text, full_deck, parse_card, sorted_for_display
from .errors import CanastaError, IllegalActionError, InvalidActionError, RulesError
from .match import HandRecord, Match, new_match, next_hand, play, replay
from .melds import Meld
from .moves import (
    ImproperMelds,
    apply,
    apply_legal,
    deal,
    explain,
    improper_melds,
    is_legal,
    legal_actions,
    meld_count,
    meld_needed,
    turn_problem,
)
from .rules import CLASSIC, Rules, rules_from_dict, rules_from_toml
from .scoring import RED_THREE_IN_HAND_PENALTY, TeamScore, score_hand, score_so_far
from .state import (
    GameState,
    HandEnd,
    Penalty,
    Phase,
    Turn,
    end_text,
    next_seat,
    partner,
    player_name,
    team,
    team_name,
    team_seats,
)
from .view import PUBLIC, PlayerView, determinize, public_view, unseen_cards, view_for, view_from_dict, view_to_dict

__all__ = [
    "CLASSIC",
    "PUBLIC",
    "RED_THREE_IN_HAND_PENALTY",
    "Action",
    "ActionKind",
    "CanastaError",
    "Card",
    "GameState",
    "HandEnd",
    "HandRecord",
    "IllegalActionError",
    "ImproperMelds",
    "InvalidActionError",
    "Match",
    "Meld",
    "Penalty",
    "Phase",
    "PlayerView",
    "Rules",
    "RulesError",
    "TeamScore",
    "Turn",
    "apply",
    "apply_legal",
    "card",
    "card_text",
    "cards_text",
    "deal",
    "determinize",
    "end_text",
    "explain",
    "full_deck",
    "improper_melds",
    "is_legal",
    "legal_actions",
    "meld_count",
    "meld_needed",
    "new_match",
    "next_hand",
    "next_seat",
    "parse_action",
    "parse_card",
    "partner",
    "play",
    "player_name",
    "public_view",
    "record",
    "replay",
    "rules_from_dict",
    "rules_from_toml",
    "score_hand",
    "score_so_far",
    "sorted_for_display",
    "team",
    "team_name",
    "team_seats",
    "turn_problem",
    "unseen_cards",
    "view_for",
    "view_from_dict",
    "view_to_dict",
]
