"""The framework's floor for ``benchmarks/server.py``: a FastAPI hello-world that receives the
same action request (path, bearer header, JSON body) and validates the body with pydantic, but
does nothing with it. Served by uvicorn with the options ``rulekeeper serve`` uses, so the
CPU it spends per request is what the installed stack costs before any of our own work.

    RULEKEEPER_HELLO_ACCESS_LOG=1 uvicorn hello_app:app   # with an access-log line per request
    python hello_app.py --serve-protocol --port 8000       # on serve's own HTTP/1.1 protocol

The second serves it on ``rulekeeper.web.protocol.GuardedH11Protocol`` (one ``send`` per
response, header deadlines), as ``rulekeeper serve`` is served: the baseline that counts none of
that protocol's savings as our work above the framework.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Header
from pydantic import BaseModel, ConfigDict, Field


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    amount: int = Field(ge=-(10**9), le=10**9)


class ActionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    actor: str = Field(min_length=1, max_length=200)
    params: Params
    rolled: list[int] | None = None


app = FastAPI()


@app.get("/api/health")
async def health() -> dict[str, str]:
    return {"status": "ok"}


@app.post("/api/campaigns/{campaign}/{system}/actions/{action}")
async def act(
    campaign: str, system: str, action: str, body: ActionRequest, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    return {"campaign": campaign, "action": action, "actor": body.actor, "ok": authorization is not None}


if __name__ == "__main__":
    import argparse

    import uvicorn

    parser = argparse.ArgumentParser(description="the hello-world, served as rulekeeper serve is")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--serve-protocol", action="store_true", help="on serve's HTTP protocol")
    args = parser.parse_args()
    options: dict[str, Any] = {"log_level": "warning", "access_log": False, "port": args.port}
    if args.serve_protocol:
        from rulekeeper.web.protocol import GuardedH11Protocol

        options["http"] = GuardedH11Protocol
    uvicorn.run("hello_app:app", **options)
