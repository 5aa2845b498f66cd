"""One small error tree: every error a person may see derives from ArenaError."""


class ArenaError(Exception):
    """Base of every error the arena raises on purpose; its text is shown to people."""


class GameError(ArenaError):
    """A problem with a game: an unknown game name or a bad configuration."""


class IllegalMoveError(GameError):
    """A move that the rules do not allow here; the text says exactly why."""


class MoveFormatError(GameError):
    """A move that is not well formed (wrong fields, unknown colour, wrong type)."""
