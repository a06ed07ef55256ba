"""Bots in any language CodinGame runs, built as CodinGame builds them, at any commit.

- `languages`: CodinGame's languages, one table: the compiler or runtime CodinGame states, how it
  builds and runs each, where each fact comes from, and how a file or a folder is recognised;
- `recipes`: the commands that build a file or a folder of each language here;
- `revisions`: a file or folder of any git repository, in its working tree or at a revision
  (`src/bot.cpp@HEAD~1`), the tree at that revision extracted once into the cache;
- `build`: builds as artifacts in the cache, under the hash of what went into them, made once and
  reused by every run, worker and resume; a failed build is one line, the compiler's first error;
- `diagnostics`: that first error, found in a compiler's log;
- `cache`: where the arena keeps what it makes once (builds, trees at a commit, pinned files).
"""
