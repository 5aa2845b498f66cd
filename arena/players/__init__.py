"""Bots as players: manifests, the bot process (framing, limits, timeouts), the launch hook."""
