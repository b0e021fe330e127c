"""The table in the browser (issue 15): GM dashboard, player pages, dice and odds.

:func:`install_pages` adds the pages and their static files to the API app; see
:mod:`rulekeeper.web.pages.routes`.
"""

from __future__ import annotations

from importlib.resources import files

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

__all__ = ["install_pages"]


def install_pages(app: FastAPI) -> None:
    from rulekeeper.web.pages.routes import router
    from rulekeeper.web.pages.templates import warm_up

    warm_up()
    static = files("rulekeeper.web") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.include_router(router)
