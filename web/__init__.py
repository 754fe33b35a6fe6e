"""The table's web dashboard and JSON API (FastAPI): ``web.app.create_app``."""
