"""Utilities shared by the engine, the games and the commands: exact numbers, limits,
progress bars, memory checks, files, notebook display, text, figures and optional
libraries."""
