"""One small error tree: every error a person may see derives from ArenaError."""


class ArenaError(Exception):
    """Base of every error the arena raises on purpose; its text is shown to people."""


class GameError(ArenaError):
    """A problem with a game: an unknown game name or a bad configuration."""


class IllegalMoveError(GameError):
    """A move that the rules do not allow here; the text says exactly why."""


class MoveFormatError(GameError):
    """A move that is not well formed (wrong fields, unknown colour, wrong type)."""


# --- Bots: manifests, builds and faults (referee engineer) ---


class BotManifestError(ArenaError):
    """A bot's folder or its bot.toml is missing or wrong; the text names the file and the fix."""


class BotBuildError(ArenaError):
    """A bot's build command failed; the text names the bot and shows the compiler's message."""


class BotFaultError(ArenaError):
    """A bot broke the protocol during play; the bot at fault loses the game."""


class BotStartupError(BotFaultError):
    """A bot could not be started or did not complete the handshake in time."""


class BotTimeoutError(BotFaultError):
    """A bot did not answer within its time limit (or stopped reading its input)."""


class BotCrashError(BotFaultError):
    """A bot's process exited or closed its output while the referee waited for it."""


class BotOversizedOutputError(BotFaultError):
    """A bot wrote a line longer than the line cap."""


class MalformedReplyError(BotFaultError):
    """A bot's reply was not JSON, or JSON of the wrong shape."""


class TournamentError(ArenaError):
    """A tournament cannot start or continue: a bad results folder, a conflicting resume."""
