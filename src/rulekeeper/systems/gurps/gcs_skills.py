"""Skill levels from a GCS file's choices: points bought, difficulty, defaults and bonuses.

The arithmetic is the GURPS 4e cost table (Basic Set p. B170) as GCS applies it: 1 point buys
the attribute plus the difficulty's offset (E 0, A -1, H -2, VH -3), 2 points +1, 4 points +2 and
every further 4 points +1. A skill may stand on its best default instead (B173): an attribute
(capped at 20, the "rule of 20") or another skill that has points, plus the default's modifier;
points bought over a default count as if the default level had been bought. ``skill_bonus``
features add, and an encumbrance multiplier subtracts the encumbrance level (Climbing, Stealth,
Swimming). Wildcard skills (B175 of the Powers line) cost triple. Techniques add their points
over their base default (one point less for Hard techniques), up to their limit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.gcs_features import Features, walk_items
from rulekeeper.systems.gurps.gcs_match import tags_match, text_matches
from rulekeeper.systems.gurps.gcs_values import criterion_text, opt_list, opt_number, opt_str, read_default

__all__ = ["DIFFICULTY_OFFSET", "GcsSkill", "SkillBook", "read_skills", "skill_level_from_points"]

#: Relative level of 1 point in a skill, by difficulty (B170); wildcard skills start like Very Hard.
DIFFICULTY_OFFSET: Mapping[str, int] = {"e": 0, "a": -1, "h": -2, "vh": -3, "w": -3}
_ATTRIBUTE_DEFAULTS = {"st", "dx", "iq", "ht", "will", "per", "vision", "hearing", "taste_smell", "touch"}


def skill_level_from_points(attribute: int, difficulty: str, points: int) -> int | None:
    """Skill level for points spent (B170): None for 0 points (the skill is not known)."""
    relative = _relative_from_points(difficulty, points)
    return None if relative is None else attribute + relative


def _relative_from_points(difficulty: str, points: float) -> int | None:
    offset = DIFFICULTY_OFFSET.get(difficulty, -1)
    whole = math.floor(points)
    if whole == 1:
        return offset
    if 1 < whole < 4:
        return offset + 1
    if whole >= 4:
        return offset + 1 + whole // 4
    return None


@dataclass(frozen=True)
class GcsSkill:
    path: str
    name: str
    specialization: str
    tags: tuple[str, ...]
    attribute: str
    difficulty: str
    points: float
    defaults: tuple[Mapping[str, Any], ...]
    technique_default: Mapping[str, Any] | None
    technique_limit: float | None
    encumbrance_multiplier: float

    @property
    def is_technique(self) -> bool:
        return self.technique_default is not None

    @property
    def key(self) -> str:
        return f"{self.name} ({self.specialization})".lower() if self.specialization else self.name.lower()


def read_skills(data: Mapping[str, Any]) -> tuple[GcsSkill, ...]:
    """Every skill and technique of the file (containers are only folders)."""
    out: list[GcsSkill] = []
    for path, item, _ in walk_items(opt_list(data, "skills", ""), "skills"):
        if "children" in item or opt_str(item, "id", path).startswith("S"):
            continue
        name = opt_str(item, "name", path).strip()
        if not name:
            raise InputError("a skill has no name", expected="a skill name", where=f"{path}.name")
        difficulty = opt_str(item, "difficulty", path, "dx/a").lower()
        technique = item.get("default") if "default" in item else None
        if technique is not None:
            attribute, diff = "", difficulty.split("/")[-1]
            technique = read_default(item["default"], f"{path}.default")
        else:
            attribute, _, diff = difficulty.partition("/")
        if diff not in DIFFICULTY_OFFSET:
            raise InputError(
                f"unknown difficulty {difficulty!r}", expected="e.g. dx/a, iq/h or h", where=f"{path}.difficulty"
            )
        limit = item.get("limit")
        out.append(
            GcsSkill(
                path=path,
                name=name,
                specialization=opt_str(item, "specialization", path).strip(),
                tags=tuple(str(t) for t in opt_list(item, "tags", path)),
                attribute=attribute,
                difficulty=diff,
                points=opt_number(item, "points", path, 0.0),
                defaults=tuple(
                    read_default(d, f"{path}.defaults[{i}]") for i, d in enumerate(opt_list(item, "defaults", path))
                ),
                technique_default=technique,
                technique_limit=opt_number(item, "limit", path) if limit is not None else None,
                encumbrance_multiplier=opt_number(item, "encumbrance_penalty_multiplier", path, 0.0),
            )
        )
    return tuple(out)


def _matches(wanted: Any, value: str) -> bool:
    if isinstance(wanted, Mapping):
        return text_matches(wanted, value)
    return str(wanted).lower() == value.lower()


class SkillBook:
    """Resolves skill levels against the attributes, features and encumbrance of one sheet."""

    def __init__(
        self,
        skills: Sequence[GcsSkill],
        attributes: Mapping[str, float],
        features: Features,
        encumbrance: int,
    ) -> None:
        self.skills = tuple(skills)
        self.attributes = attributes
        self.features = features
        self.encumbrance = encumbrance
        self._levels: dict[str, tuple[int, int] | None] = {}
        self._busy: set[str] = set()
        self._cuts = 0  # default chains cut short; a level found under a cut is not kept

    # -- lookups ---------------------------------------------------------------------------
    def named(self, name: Any, specialization: Any = "", *, require_points: bool) -> list[GcsSkill]:
        """Skills by name and specialization, each plain text (equal, ignoring case) or a GCS text
        criterion (a default written as ``{"compare": "starts_with", ...}``); no specialization is any."""
        out = []
        for skill in self.skills:
            if not _matches(name, skill.name):
                continue
            if specialization and not _matches(specialization, skill.specialization):
                continue
            if require_points and not skill.is_technique and skill.points <= 0:
                continue
            out.append(skill)
        return out

    def attribute(self, name: str) -> float | None:
        value = self.attributes.get(name.lower())
        return None if value is None else float(value)

    def skill_bonus(self, name: str, specialization: str, tags: Sequence[str]) -> int:
        total = 0.0
        for f in self.features.of("skill_bonus"):
            if str(f.data.get("selection_type") or "skills_with_name") != "skills_with_name":
                continue
            if (
                text_matches(f.data.get("name"), name)
                and text_matches(f.data.get("specialization"), specialization)
                and tags_match(f.data.get("tags"), tags)
            ):
                total += f.amount
        return math.trunc(total)

    # -- levels ----------------------------------------------------------------------------
    def level(self, skill: GcsSkill) -> int | None:
        found = self.resolve(skill)
        return None if found is None else found[0]

    def relative(self, skill: GcsSkill) -> int | None:
        found = self.resolve(skill)
        return None if found is None else found[1]

    def resolve(self, skill: GcsSkill) -> tuple[int, int] | None:
        """(level, relative level) or None when the skill cannot be used (no points, no default)."""
        if skill.path in self._levels:
            return self._levels[skill.path]
        if skill.path in self._busy:
            self._cuts += 1
            return None
        cuts = self._cuts
        self._busy.add(skill.path)
        try:
            result = self._technique(skill) if skill.is_technique else self._skill(skill)
        finally:
            self._busy.discard(skill.path)
        if self._cuts == cuts or not self._busy:
            # a skill may not default through itself (GCS prunes such chains); a level computed
            # while an outer skill was excluded is right only for that outer skill's question
            self._levels[skill.path] = result
        return result

    def best_level(self, name: Any, specialization: Any = "", *, require_points: bool) -> int | None:
        levels = [self.level(s) for s in self.named(name, specialization, require_points=require_points)]
        known = [lv for lv in levels if lv is not None]
        return max(known) if known else None

    def default_level(self, default: Mapping[str, Any], *, require_points: bool, rule_of_20: bool) -> float | None:
        """The level a default gives: attribute or skill, plus its modifier."""
        kind = str(default.get("type") or "").lower()
        modifier = float(default.get("modifier") or 0)
        if kind == "skill":
            level = self.best_level(
                default.get("name") or "", default.get("specialization") or "", require_points=require_points
            )
            return None if level is None else level + modifier
        attr = self.attribute(kind) if kind in _ATTRIBUTE_DEFAULTS or kind in self.attributes else None
        if attr is None:
            return None
        if rule_of_20:
            attr = min(attr, 20.0)
        return attr + modifier

    def _best_default(self, skill: GcsSkill) -> float | None:
        best: float | None = None
        for default in skill.defaults:
            level = self.default_level(default, require_points=True, rule_of_20=True)
            if level is None:
                continue
            if str(default.get("type")) == "skill":
                # the other skill's own bonuses do not carry over through a default
                level -= self.skill_bonus(
                    criterion_text(default.get("name")), criterion_text(default.get("specialization")), skill.tags
                )
            if best is None or level > best:
                best = level
        return best

    def _skill(self, skill: GcsSkill) -> tuple[int, int] | None:
        attr = self.attribute(skill.attribute)
        if attr is None:
            return None
        base = math.trunc(attr)
        offset = DIFFICULTY_OFFSET[skill.difficulty]
        points = skill.points
        default = self._best_default(skill)
        default_level: int | None = None
        default_points = 0
        if default is not None:
            default_level = math.trunc(default)
            baseline = base + offset
            if default_level == baseline:
                default_points = 1
            elif default_level == baseline + 1:
                default_points = 2
            elif default_level > baseline + 1:
                default_points = 4 * (default_level - (baseline + 1))
            else:
                default_points = -max(default_level, 0)
        if skill.difficulty == "w":
            points = points / 3
        elif default_points > 0:
            points += default_points
        relative = _relative_from_points(skill.difficulty, points)
        if relative is None:
            if skill.difficulty == "w" or default_level is None or default_points >= 0:
                return None
            relative = default_level - base
        level = base + relative
        if skill.difficulty != "w" and default_level is not None and level < default_level:
            level = default_level
        bonus = self.skill_bonus(skill.name, skill.specialization, skill.tags)
        level += bonus
        relative += bonus
        level -= math.trunc(self.encumbrance * skill.encumbrance_multiplier)
        return level, relative

    def _technique(self, skill: GcsSkill) -> tuple[int, int] | None:
        default = skill.technique_default or {}
        kind = str(default.get("type") or "").lower()
        modifier = float(default.get("modifier") or 0)
        if kind == "skill":
            base_level = self.best_level(
                str(default.get("name") or ""), str(default.get("specialization") or ""), require_points=True
            )
        else:
            found = self.default_level(default, require_points=True, rule_of_20=True)
            base_level = None if found is None else math.trunc(found - modifier)
        if base_level is None:
            return None
        level = base_level + modifier
        points = skill.points - (1 if skill.difficulty == "h" else 0)
        relative = points if points > 0 else 0.0
        relative += self.skill_bonus(skill.name, skill.specialization, skill.tags)
        level += relative
        if skill.technique_limit is not None and level > base_level + skill.technique_limit:
            relative -= level - (base_level + skill.technique_limit)
            level = base_level + skill.technique_limit
        return math.trunc(level), math.trunc(relative)
