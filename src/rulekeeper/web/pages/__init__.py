"""The table in the browser (issue 15): GM dashboard, player pages, dice and odds, the front
page and the join link.

:func:`install_pages` adds the pages and their static files to the API app; see
:mod:`rulekeeper.web.pages.routes` (the campaign's pages), :mod:`rulekeeper.web.pages.front`
(``/``) and :mod:`rulekeeper.web.pages.join` (the join link).
"""

from __future__ import annotations

from importlib.resources import files

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

__all__ = ["install_pages"]


def install_pages(app: FastAPI) -> None:
    from rulekeeper.web.pages import front, join
    from rulekeeper.web.pages.routes import router
    from rulekeeper.web.pages.templates import warm_up

    warm_up()
    static = files("rulekeeper.web") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.include_router(front.router)
    app.include_router(join.router)
    app.include_router(router)
