"""JSON forms of game state, for snapshots, exports and ``--json`` output.

Uses pydantic's TypeAdapter on our frozen dataclasses, imported only when something is
serialised, so rules code and fast CLI paths never load it. Reading back what we wrote (a
snapshot) goes first through :mod:`rulekeeper.core.decode`, which needs no validator built;
anything it does not recognise as exactly ours is left to pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulekeeper.core.state import GameState
from rulekeeper.errors import InputError

if TYPE_CHECKING:
    from pydantic import TypeAdapter

    from rulekeeper.core.ruleset import Ruleset

__all__ = ["state_from_json", "state_to_json"]


_ADAPTERS: dict[type[Any], Any] = {}


def _adapter(character_type: type[Any]) -> TypeAdapter[Any]:
    from pydantic import TypeAdapter

    if character_type not in _ADAPTERS:
        _ADAPTERS[character_type] = TypeAdapter(GameState[character_type])  # type: ignore[valid-type]
    adapter: TypeAdapter[Any] = _ADAPTERS[character_type]
    return adapter


def state_to_json(ruleset: Ruleset[Any], state: GameState[Any]) -> dict[str, Any]:
    data: dict[str, Any] = _adapter(ruleset.character_type).dump_python(state, mode="json")
    return data


def state_from_json(ruleset: Ruleset[Any], data: Any) -> GameState[Any]:
    from rulekeeper.core.decode import NotOurs, decode

    try:
        fast: GameState[Any] = decode(GameState[ruleset.character_type], data)  # type: ignore[name-defined]
        return fast
    except NotOurs:
        pass
    from pydantic import ValidationError

    try:
        state: GameState[Any] = _adapter(ruleset.character_type).validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InputError(f"state does not match the {ruleset.name} format at {where}: {first['msg']}") from None
    return state
