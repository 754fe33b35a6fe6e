"""Kibic: the application (CLI, configuration, table runtime, event store)."""

__version__ = "0.1.0"
