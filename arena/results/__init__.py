"""Results of tournaments: the append-only games log, ratings, tables, charts and the report.

Everything here reads the games log (`games.jsonl`) and nothing else, so a report can be made
again at any time, for a finished or a running tournament.
"""
