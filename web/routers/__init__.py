"""One APIRouter per resource: table state, live feed, admin actions, history, exports, pages."""
