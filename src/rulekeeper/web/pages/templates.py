"""Jinja2 for the pages: templates and static files ship inside the package."""

from __future__ import annotations

from functools import cache
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

__all__ = ["environment", "render", "render_block", "sections", "warm_up"]


@cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("rulekeeper.web", "templates"),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["percent"] = lambda p: f"{float(p):.2%}"
    return env


def warm_up() -> None:
    """Compile every template now (at app start, in each worker), not on a GM's first request."""
    env = environment()
    for name in env.list_templates(extensions=["html"]):
        env.get_template(name)


def render_block(template: str, block: str, context: dict[str, Any]) -> str:
    """One ``{% block %}`` of a template on its own: a live section of a page."""
    tmpl = environment().get_template(template)
    return "".join(tmpl.blocks[block](tmpl.new_context(context)))


def sections(template: str, names: tuple[str, ...], context: dict[str, Any]) -> dict[str, Markup]:
    return {n: Markup(render_block(template, n, context)) for n in names}


def render(request: Request, template: str, context: dict[str, Any], *, status_code: int = 200) -> HTMLResponse:
    html = environment().get_template(template).render({**context, "path": request.url.path})
    return HTMLResponse(html, status_code=status_code, headers={"Cache-Control": "no-store"})
