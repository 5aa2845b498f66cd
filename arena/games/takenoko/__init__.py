"""Takenoko (2-4 players, Chibis as an option): ../shared/rules/TAKENOKO.md with rulings T1..T22.

Built so far (issue 15, in progress; the game is not registered yet): the components as
data (components.py), the hex geometry (hexes.py) and the objectives' conditions
(objectives.py). The engine (turns, weather, actions, irrigation, growth) comes next.
"""
