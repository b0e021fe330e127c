"""One OpenAPI operation per action of every system, generated from its ``ActionSpec``.

Nothing here is written per action (the CLI's :mod:`rulekeeper.cli.action_commands` does the
same for commands): each :class:`~rulekeeper.core.ParamSpec` becomes a typed field of the
action's request model, with its range, choices, default and help, so ``/docs`` is a usable
reference and a malformed body is refused with 422 naming the field before the rules see it.
The rules still validate everything themselves (``validate_params``), so the two agree.

``POST /api/campaigns/{campaign}/{system}/actions/{action}`` with::

    {"actor": "toromeen", "params": {"amount": 5, "in_combat": true}, "rolled": [4, 6]}

``rolled`` are dice rolled at the table for every roll the action causes (left out: the
campaign's dice). The GM may act for anyone; a player only for a character they play, and an
action on anyone else becomes a request to the GM (``campaign.seat`` decides, not this module).
"""

from __future__ import annotations

import inspect
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, FastAPI, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field, Strict, create_model
from starlette.concurrency import run_in_threadpool
from starlette.routing import BaseRoute
from starlette.types import ASGIApp

from rulekeeper.campaign import Campaign, CommandResult
from rulekeeper.campaign.facade import Planned
from rulekeeper.campaign.seat import Seat
from rulekeeper.core import Action, ActionSpec, ParamSpec, get_ruleset, system_names
from rulekeeper.dice.typed import MAX_TYPED_DICE
from rulekeeper.errors import UnknownNameError
from rulekeeper.web.action_dispatch import ActionEntry, ActionPresume, ActionRun, dispatch_route
from rulekeeper.web.auth import Access, member
from rulekeeper.web.commands import IdempotencyKey, IfMatch, execute, seat_of, viewer_in
from rulekeeper.web.models import CommandResponse
from rulekeeper.web.problems import PROBLEM_RESPONSES
from rulekeeper.web.server import Server, server_of

__all__ = ["action_router", "install_actions", "param_field", "presumer", "request_model", "runner"]

_INT_LIMIT = 10**9


def _camel(text: str) -> str:
    return "".join(part.capitalize() for part in text.replace("-", "_").split("_") if part)


def param_field(p: ParamSpec) -> tuple[Any, Any]:
    """The annotation and ``Field`` of one parameter."""
    description = (p.help or p.name.replace("_", " ")) + f" -- {p.expected}" + (" (GM only)" if p.gm_only else "")
    description += " (the GM's: a player leaves it out)" if p.overrides_rules else ""
    bounds: dict[str, Any] = {}
    annotation: Any
    if p.kind in ("int", "float"):
        # As JSON writes them: ``true`` is no 1 (it was applied as 1 point of damage), and a
        # whole number is no ``1.5`` (a float parameter takes whole numbers too).
        annotation = Annotated[int if p.kind == "int" else float, Strict()]
        # Unbounded sides still get a generous bound: no rule needs a billion, and huge numbers
        # are the cheapest way to make a loop run forever.
        bounds["ge"] = p.minimum if p.minimum is not None else -_INT_LIMIT
        bounds["le"] = p.maximum if p.maximum is not None else _INT_LIMIT
    elif p.kind == "bool":
        annotation = Annotated[bool, Strict()]
    elif p.kind == "choice":
        annotation = Literal[p.choices]
    elif p.kind == "duration":
        annotation = (
            Annotated[int, Strict(), Field(ge=0, le=_INT_LIMIT)] | Annotated[str, Field(min_length=1, max_length=40)]
        )
    elif p.kind == "ints":
        annotation = list[Annotated[int, Strict(), Field(ge=-_INT_LIMIT, le=_INT_LIMIT)]]
        bounds["max_length"] = 100
    else:  # str, character, dice: text the rules read
        annotation = str
        bounds.update(min_length=1, max_length=200)
    default: Any
    # A required parameter only the GM gives (a cure's threshold) may be left out: a player's
    # action then waits for the GM to fill it in (``campaign.seat``); the rules still require it.
    if p.required and not (p.overrides_rules or p.gm_only):
        default = ...
    elif p.default is None:
        annotation = annotation | None
        default = None
    else:
        default = list(p.default) if isinstance(p.default, tuple) else p.default
    return annotation, Field(default, description=description, **bounds)


class _Forbid(BaseModel):
    model_config = ConfigDict(extra="forbid")


def request_model(system: str, spec: ActionSpec) -> type[BaseModel]:
    """The body model of one action: ``actor``, ``params`` (typed from the specs), ``rolled``."""
    prefix = _camel(system) + _camel(spec.name)
    fields = {p.name: param_field(p) for p in spec.params}
    params_model = create_model(f"{prefix}Params", __base__=_Forbid, **fields)  # type: ignore[call-overload]
    body: dict[str, Any] = {}
    if spec.actor == "required":
        body["actor"] = (str, Field(min_length=1, max_length=200, description="The acting character's id."))
    elif spec.actor == "optional":
        body["actor"] = (str | None, Field(None, min_length=1, max_length=200, description="The acting character."))
    needs_params = any(p.required for p in spec.params)
    body["params"] = (params_model, Field(...) if needs_params else Field(default_factory=params_model))
    body["rolled"] = (
        Annotated[list[Annotated[int, Field(ge=1, le=1000)]], Field(max_length=MAX_TYPED_DICE)]
        | Annotated[str, Field(min_length=1, max_length=4 * MAX_TYPED_DICE)]
        | None,
        Field(
            None,
            description="Dice rolled at the table for every roll this causes, in order: numbers, or "
            "text as typed ('4 6 2', '4,6,2', '4+6+2').",
        ),
    )
    model: type[BaseModel] = create_model(f"{prefix}Request", __base__=_Forbid, **body)
    model.__doc__ = spec.help
    return model


def runner(system: str, spec: ActionSpec) -> ActionRun:
    """Run one action for a member (blocking: in a worker thread) and answer with its projection;
    shared by the documented operation and the one dispatch route."""

    def run(
        server: Server, access: Access, response: Response, body: Any, if_match: str | None, key: str | None
    ) -> dict[str, Any]:
        actor = getattr(body, "actor", None)
        params = body.params.model_dump(exclude_unset=True, exclude_none=True)
        rolled = body.rolled

        def command(campaign: Campaign, expected: int | None, key: str | None) -> CommandResult:
            if campaign.system != system:
                raise UnknownNameError(
                    f"campaign {campaign.name!r} plays {campaign.system}, not {system}",
                    expected=f"/api/campaigns/{campaign.name}/{campaign.system}/actions/...",
                )
            seat = seat_of(viewer_in(campaign, access))
            action = Action(spec.name, actor, params)
            return campaign.act(action, dice=rolled, expected_version=expected, key=key, seat=seat)

        return execute(server, access, response, command, if_match=if_match, key=key)

    return run


def presumer(system: str, spec: ActionSpec) -> ActionPresume:
    """The action worked out on the held campaign for :func:`~.commands.execute_awaited`, or
    None where :func:`runner` must run it (another system's campaign included: it says so)."""

    def presume(campaign: Campaign, seat: Seat, body: Any, expected: int | None, key: str | None) -> Planned | None:
        if campaign.system != system:
            return None
        params = body.params.model_dump(exclude_unset=True, exclude_none=True)
        action = Action(spec.name, getattr(body, "actor", None), params)
        return campaign.presume_act(action, dice=body.rolled, expected_version=expected, key=key, seat=seat)

    return presume


def _endpoint(system: str, spec: ActionSpec, model: type[BaseModel]) -> Any:
    run = runner(system, spec)

    async def act(
        response: Response,
        body: Any,
        access: Access,
        server: Server,
        if_match: str | None = None,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        # An async endpoint with the command in one worker thread: a plain (sync) endpoint also
        # sends FastAPI's response validation to the thread pool, one more hand-over of the GIL
        # between the event loop and a thread per request.
        return await run_in_threadpool(run, server, access, response, body, if_match, idempotency_key)

    kw = inspect.Parameter.KEYWORD_ONLY
    act.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter("response", kw, annotation=Response),
            inspect.Parameter("body", kw, annotation=Annotated[model, Body()]),
            inspect.Parameter("access", kw, annotation=Annotated[Access, Depends(member)]),
            inspect.Parameter("server", kw, annotation=Annotated[Server, Depends(server_of)]),
            inspect.Parameter("if_match", kw, default=None, annotation=IfMatch),
            inspect.Parameter("idempotency_key", kw, default=None, annotation=IdempotencyKey),
        ]
    )
    act.__name__ = f"{system}_{spec.name}".replace("-", "_")
    return act


def _entries() -> tuple[APIRouter, dict[tuple[str, str], ActionEntry]]:
    router = APIRouter()
    entries: dict[tuple[str, str], ActionEntry] = {}
    for system in system_names():
        ruleset = get_ruleset(system)
        for spec in ruleset.actions().values():
            model = request_model(system, spec)
            router.add_api_route(
                f"/api/campaigns/{{campaign}}/{system}/actions/{spec.name}",
                _endpoint(system, spec, model),
                methods=["POST"],
                response_model=CommandResponse,
                response_model_exclude_unset=True,
                responses=PROBLEM_RESPONSES,
                summary=f"{ruleset.title}: {spec.name}",
                description=spec.help,
                operation_id=f"{system}.{spec.name}".replace("-", "_"),
                tags=[f"actions: {ruleset.title}"],
            )
            route = router.routes[-1]
            assert isinstance(route, APIRoute)
            entries[(system, spec.name)] = ActionEntry(route, model, runner(system, spec), presumer(system, spec))
    return router, entries


def action_router() -> APIRouter:
    """Every action of every registered system as its own documented operation, grouped by
    system in ``/docs``. :func:`install_actions` serves them through one route instead."""
    return _entries()[0]


def install_actions(app: FastAPI) -> list[BaseRoute]:
    """Serve every action through one route at the head of the app's table, with ordinary
    requests answered in front of the app's middleware (see :mod:`.action_dispatch`); return
    the documented per-action operations for the OpenAPI schema."""
    router, entries = _entries()
    route, dispatch = dispatch_route(entries)
    app.router.routes.insert(0, route)
    build = app.build_middleware_stack

    def stack() -> ASGIApp:
        # The lane skips the middleware stack, so it stands aside for an app given middleware
        # of its own (a limit, a check): actions then take the route in the table.
        return build() if app.user_middleware else dispatch.lane(app, build())

    app.build_middleware_stack = stack  # type: ignore[method-assign]
    return router.routes
