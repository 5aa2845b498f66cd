"""The league's HTTP routes, one module per concern; each module's `RouteGroup` lists its
routes, and arena/league/web.py's `ROUTE_GROUPS` names every group the application serves.

- pages.py: the page, the join page, a game's replay;
- leaderboard.py: the leaderboard (plain and custom) and its live event stream;
- bots.py: reading the bots: the list, one bot's page, its games, its games as a download;
- submissions.py: an author's acts on their bots: submit, retire, remove, read its stderr
  (and the admin's unretire);
- accounts.py: who a token is, invites and joining, the admin's pause and resume and audit
  log.
- human.py: an author plays a bot in the browser (not rated; human_tables.py).
"""
