"""Errors as RFC 9457 ``application/problem+json``: every refusal says what and, where it can,
which field and the form expected.

=====================  ======  ==========================================================
raised                 status  ``type`` (relative to ``/problems/``)
=====================  ======  ==========================================================
request body/params    422     ``validation`` -- ``errors`` lists each field and its form
``UnknownNameError``   404     ``not-found`` -- unknown campaign, character, action, check
``InputError``         400     ``bad-input`` -- ``expected`` and ``where`` when known
``RuleRefusal``        409     ``rule-refusal``
``CampaignConflict``   412     ``stale-version`` -- ``changes`` lists what happened since
``Problem(401/403)``   401/3   ``unauthenticated`` / ``forbidden``
``OutcomeUnknown``     503     ``outcome-unknown`` -- a write sent, then the database lost
``StoreError``         503     ``store-unavailable``
anything else          500     ``internal`` -- a bug; logged, never detailed to the client
=====================  ======  ==========================================================
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict
from starlette.exceptions import HTTPException as StarletteHTTPException

from rulekeeper.campaign.results import CampaignConflict
from rulekeeper.campaign.seat import SeatRefusal
from rulekeeper.errors import InputError, OutcomeUnknown, RuleRefusal, StoreError, UnknownNameError
from rulekeeper.validation_words import field_errors

__all__ = ["MEDIA_TYPE", "PROBLEM_RESPONSES", "Problem", "ProblemModel", "install_problem_handlers", "problem_response"]

MEDIA_TYPE = "application/problem+json"
_log = logging.getLogger("rulekeeper.web")
_TITLES = {
    400: "Bad input",
    401: "Not authenticated",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Refused by a rule",
    412: "Campaign changed",
    408: "Request timeout",
    413: "Request too large",
    415: "Unsupported media type",
    429: "Too many requests",
    422: "Invalid request",
    428: "Precondition required",
    500: "Internal error",
    503: "Store unavailable",
}


class ProblemModel(BaseModel):
    """The body of every error response (RFC 9457); extension members vary by ``type``."""

    model_config = ConfigDict(extra="allow")

    type: str
    title: str
    status: int
    detail: str | None = None
    instance: str | None = None


#: Declared on every operation, so the OpenAPI schema describes every error a client can meet.
PROBLEM_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ProblemModel, "description": _TITLES[status], "content": {MEDIA_TYPE: {}}}
    for status in (400, 401, 403, 404, 409, 412, 422)
}


class Problem(Exception):
    """An error raised by the web layer itself (identity, media type ...)."""

    def __init__(self, status: int, kind: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.kind = kind
        self.detail = detail
        self.extra = extra


def problem_response(
    status: int, kind: str, detail: str | None, instance: str | None = None, **extra: Any
) -> JSONResponse:
    body: dict[str, Any] = {
        "type": f"/problems/{kind}",
        "title": _TITLES.get(status, "Error"),
        "status": status,
        "detail": detail,
        "instance": instance,
        **extra,
    }
    headers = {"WWW-Authenticate": 'Bearer realm="rulekeeper"'} if status == 401 else None
    return JSONResponse(body, status_code=status, media_type=MEDIA_TYPE, headers=headers)


def _input(exc: InputError) -> dict[str, Any]:
    return {"expected": exc.expected, "where": exc.where, "message": exc.message}


#: The framework's own refusals, in our words (it raises them before any route of ours runs).
_PARSING_BODY = "There was an error parsing the body"


def _framework_words(request: Request, exc: StarletteHTTPException) -> str:
    if exc.status_code == 404 and exc.detail == "Not Found":
        return f"no such address: {request.url.path} (the API's addresses are listed at /docs)"
    if exc.status_code == 405 and exc.detail == "Method Not Allowed":
        return f"{request.url.path} does not take {request.method} (/docs lists what each address takes)"
    if exc.status_code == 400 and exc.detail == _PARSING_BODY:
        return (
            "the request body could not be read: it is not UTF-8 text, or it nests or numbers beyond "
            "what JSON readers take (expected a JSON object, as /docs shows for this request)"
        )
    return str(exc.detail)


def install_problem_handlers(app: FastAPI) -> None:
    """Route every error the server can raise to a problem document."""

    def path(request: Request) -> str:
        return request.url.path

    @app.exception_handler(Problem)
    async def _problem(request: Request, exc: Problem) -> JSONResponse:
        return problem_response(exc.status, exc.kind, exc.detail, path(request), **exc.extra)

    @app.exception_handler(UnknownNameError)
    async def _unknown(request: Request, exc: UnknownNameError) -> JSONResponse:
        return problem_response(404, "not-found", str(exc), path(request), **_input(exc))

    @app.exception_handler(InputError)
    async def _bad(request: Request, exc: InputError) -> JSONResponse:
        return problem_response(400, "bad-input", str(exc), path(request), **_input(exc))

    @app.exception_handler(SeatRefusal)
    async def _seat(request: Request, exc: SeatRefusal) -> JSONResponse:
        return problem_response(403, "forbidden", str(exc), path(request))

    @app.exception_handler(RuleRefusal)
    async def _refused(request: Request, exc: RuleRefusal) -> JSONResponse:
        return problem_response(409, "rule-refusal", str(exc), path(request))

    @app.exception_handler(CampaignConflict)
    async def _stale(request: Request, exc: CampaignConflict) -> JSONResponse:
        changes = [{"seq": seq, "summary": summary} for seq, summary in exc.changes]
        return problem_response(
            412,
            "stale-version",
            str(exc),
            path(request),
            expected_version=exc.expected_version,
            current_version=exc.current_version,
            changes=changes,
        )

    @app.exception_handler(OutcomeUnknown)
    async def _outcome_unknown(request: Request, exc: OutcomeUnknown) -> JSONResponse:
        _log.warning("store error on %s: %s", path(request), exc)
        return problem_response(
            503,
            "outcome-unknown",
            "the campaign database stopped answering after the command was sent: it may have been applied",
            path(request),
            expected="the campaign's log read before the command is sent again, or the command sent again "
            "with the same Idempotency-Key",
        )

    @app.exception_handler(StoreError)
    async def _store(request: Request, exc: StoreError) -> JSONResponse:
        _log.warning("store error on %s: %s", path(request), exc)
        return problem_response(503, "store-unavailable", "the campaign database could not be used", path(request))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = field_errors(exc.errors())
        detail = "; ".join(f"{e['field']}: {e['message']} (expected {e['expected']})" for e in errors[:5])
        return problem_response(422, "validation", detail, path(request), errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        kind = {404: "not-found", 405: "method-not-allowed"}.get(exc.status_code, "http")
        return problem_response(exc.status_code, kind, _framework_words(request, exc), path(request))

    @app.exception_handler(Exception)
    async def _bug(request: Request, exc: Exception) -> JSONResponse:
        _log.exception("unexpected error on %s", path(request))
        return problem_response(500, "internal", "an unexpected error; it has been logged", path(request))
