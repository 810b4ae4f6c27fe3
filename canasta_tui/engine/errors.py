"""Errors the engine raises.  Messages say what was wrong, for a player to read."""


class CanastaError(ValueError):
    """An action that the rules do not allow here, with the reason."""


class IllegalActionError(CanastaError):
    """The action is well-formed but not legal in this position."""


class InvalidActionError(CanastaError):
    """The action's text could not be read."""


class RulesError(ValueError):
    """A rule option or preset that cannot be used."""
