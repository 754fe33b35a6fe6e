"""One module per game; each lists its rules classes in ``GAMES``."""
