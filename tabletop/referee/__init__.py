"""Pure game logic: rules applied to what was said, the public state, knowledge and checks."""

from tabletop.referee.actions import Action, parse_action
from tabletop.referee.game import Doubt, Game, Step
from tabletop.referee.intents import Intent, intent_from_json
from tabletop.referee.referee import Question, Referee, Ruling
from tabletop.referee.state import Phase, State

__all__ = [
    "Action", "parse_action", "Doubt", "Game", "Step", "Intent", "intent_from_json", "Question",
    "Referee", "Ruling", "Phase", "State",
]
