"""Racecraft: the designer's editor. `racecraft lsp`, a language server (stdio) that says what
`validate` says as a file is edited, and completes, explains and finds the names of a ruleset.

- `checking.py`: which games a file is checked with, checked by validate's own loader and checker
  on the editor's unsaved texts (`base.files.overlaid`), the verdicts kept by the texts they read;
- `knowledge.py`: what a ruleset declares, with where and what it is (completion, hover, definition);
- `outline.py`: a file's outline (its sections, rules and patches);
- `positions.py`: places in a file as the editor counts them (lines from 0, UTF-16 columns);
- `server.py`: the protocol (pygls), the only module that imports it;
- `commands.py`: `racecraft lsp`.
"""
