"""The club server: many tables forward their event logs to one results service.

``club.forwarder`` is what a table runs (standard library only); ``club.app`` is the server
(FastAPI over SQLAlchemy, PostgreSQL in a club, SQLite as the embedded default); ``club.results``
turns stored logs into games, standings and penalties by replaying them with the table runtime.
Nothing here is imported by ``kibic`` at import time.
"""
