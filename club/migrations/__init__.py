"""Alembic migrations of the club database (run by ``club.db.migrate``)."""
