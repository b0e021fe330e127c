"""The operations are generated from the rules' specs; GURPS GM-secret rolls stay with the GM."""

from __future__ import annotations

from typing import Any

from rulekeeper.core import get_ruleset, system_names

from .web_support import InProcess, bearer


def _resolve(schema: dict[str, Any], ref: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in ref:
        ref = schema["components"]["schemas"][ref["$ref"].rsplit("/", 1)[1]]
    return ref


def test_every_action_of_every_system_is_its_own_typed_operation(api: InProcess) -> None:
    schema = api.get("/openapi.json").json()
    operations = {op["operationId"]: op for path in schema["paths"].values() for op in path.values()}
    checked = 0
    for system in system_names():
        for spec in get_ruleset(system).actions().values():
            op = operations[f"{system}.{spec.name}".replace("-", "_")]
            assert op["description"] == spec.help
            body = _resolve(schema, op["requestBody"]["content"]["application/json"]["schema"])
            params = _resolve(schema, body["properties"]["params"])
            assert set(params.get("properties", {})) == {p.name for p in spec.params}
            # A required parameter only the GM gives may be left out by a player (the request
            # waits for the GM to fill it in); the rules still require it of the GM.
            gm_gives = {p.name for p in spec.params if p.overrides_rules or p.gm_only}
            assert set(params.get("required", [])) == {p.name for p in spec.params if p.required} - gm_gives
            assert ("actor" in body.get("required", [])) == (spec.actor == "required")
            for p in spec.params:
                field = params["properties"][p.name]
                assert p.expected in field["description"]
                text = str(field)
                if p.kind == "choice":
                    assert all(choice in text for choice in p.choices)
                if p.kind in ("int", "float") and p.minimum is not None:
                    assert f"'minimum': {p.minimum:g}" in text or f"'minimum': {p.minimum}" in text
            checked += 1
    assert checked > 100  # four systems' worth
    assert {"401", "403", "404", "409", "412", "422"} <= set(operations["gurps.damage"]["responses"])


def _gurps(api: InProcess, name: str) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    r = api.post("/api/campaigns", json={"name": name, "system": "gurps", "seed": 5})
    gm = bearer(r.json()["gm_token"])
    for actor, player in (("scout", "ana"), ("guard", "bea")):
        r = api.post(
            f"/api/campaigns/{name}/characters",
            headers=gm,
            json={"actor": actor, "sheet": {"name": actor.title(), "iq": 11, "per": 12}, "player": player},
        )
        assert r.status_code == 200, r.text
    tokens = [
        api.post(f"/api/campaigns/{name}/members", headers=gm, json={"name": n}).json()["token"] for n in ("ana", "bea")
    ]
    return gm, bearer(tokens[0]), bearer(tokens[1])


def _danger(text: str) -> bool:
    """Anything a player could learn a Danger Sense roll from (its wording, result or the flags)."""
    return any(word in text for word in ("Danger Sense", "senses danger", "sense of danger", "dangerous", "danger_s"))


def test_a_danger_sense_roll_never_reaches_a_player(api: InProcess) -> None:
    gm, ana, bea = _gurps(api, "danger")
    body = {
        "actor": "scout",
        "params": {"sense": "hearing", "comprehension": "iq", "dangerous": True, "danger_sense": True},
        "rolled": [3, 3, 3, 6, 5, 4],
    }
    # Dice typed with the command feed the hearing and comprehension rolls; the secret roll never
    # takes typed dice (roll_rules 4), it waits for the GM even under auto.
    r = api.post("/api/campaigns/danger/gurps/actions/sense", headers=gm, json={**body, "rolled": [*body["rolled"], 2]})
    assert r.status_code == 400 and "used only 6" in r.json()["detail"], r.text
    r = api.post("/api/campaigns/danger/gurps/actions/sense", headers=gm, json=body)
    assert r.status_code == 200, r.text
    held = api.get("/api/campaigns/danger/pending", headers=gm).json()
    assert [p["kind"] for p in held] == ["gurps.sense.danger"]
    r = api.post(f"/api/campaigns/danger/pending/{held[0]['id']}/resolve", headers=gm, json={"dice": [2, 2, 2]})
    assert r.status_code == 200 and r.json()["result"]["danger_sensed"] is True, r.text
    gm_log = api.get("/api/campaigns/danger/log", headers=gm).text
    assert "Danger Sense" in gm_log and "senses danger" in gm_log
    for who in (ana, bea):
        text = api.get("/api/campaigns/danger/log", headers=who).text
        assert not _danger(text), text
    assert "Scout notices it" in api.get("/api/campaigns/danger/log", headers=ana).text

    # Left to the GM as a pending check: the player never sees it, nor its resolution.
    r = api.patch("/api/campaigns/danger/settings", headers=gm, json={"automation": {"gurps.sense.danger": "prompt"}})
    assert r.status_code == 200, r.text
    r = api.post("/api/campaigns/danger/gurps/actions/sense", headers=gm, json={**body, "rolled": [6, 6, 5]})
    assert r.status_code == 200, r.text
    pending = api.get("/api/campaigns/danger/pending", headers=gm).json()
    assert [p["kind"] for p in pending] == ["gurps.sense.danger"] and pending[0]["secret"] is True
    assert api.get("/api/campaigns/danger/pending", headers=ana).json() == []
    r = api.post(f"/api/campaigns/danger/pending/{pending[0]['id']}/resolve", headers=ana, json={"dice": [1, 1, 1]})
    assert r.status_code == 403
    r = api.post(f"/api/campaigns/danger/pending/{pending[0]['id']}/resolve", headers=gm, json={"dice": [1, 1, 1]})
    assert r.status_code == 200, r.text
    seq = r.json()["seq"]
    ana_log = api.get("/api/campaigns/danger/log", headers=ana).json()
    assert seq not in [e["seq"] for e in ana_log]
    assert not _danger(str(ana_log))
