"""Not a bot: this folder is also the package `arena.bundled_bots` (setup.py), the bundled
bots, this guide and the protocol's schema as the arena finds them once installed."""
