"""The live league (`arena serve`, issue 24), built in parts, each with one job:

- `uploads`: a submitted `.zip` or `.tar.gz` unpacked into a bot folder, every member
  checked (size, count, paths, links, kinds) before a byte is written.
- `accounts`: authors' tokens, made at random, stored hashed, compared in constant time.
- `store`: the league's database (SQLite, WAL, a versioned schema): authors, bots and
  their versions, games recorded once.
"""
