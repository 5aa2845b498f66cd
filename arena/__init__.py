"""Mandala Arena: a referee, tournaments and ratings for bots that play Mandala."""

__version__ = "0.1.0"
