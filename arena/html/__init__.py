"""Pages to look at in a browser, offline, from the run folder: the report and the replays.

Every page is one self-contained HTML file: its styles and scripts are inlined from
`assets/`, its data is embedded as JSON (`embed.script_json`), nothing is fetched.
"""
