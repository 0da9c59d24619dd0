"""`boom lsp`: a language server for edition files (needs pygls, boom's `lsp` extra).

analysis.py answers an editor's questions from the checker's results; server.py speaks the
Language Server Protocol over stdio with pygls. docs/lsp.md sets it up in VS Code, Neovim, Helix
and Emacs.
"""
