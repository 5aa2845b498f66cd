"""A human seat at a table: a person plays through the same referee, view and legal moves a
bot receives, on a page served on the loopback (`arena play human BOT...`)."""
