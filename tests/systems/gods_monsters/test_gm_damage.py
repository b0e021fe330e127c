"""Damage: absorption order, archetypal criteria, consciousness rolls, direct injuries."""

from __future__ import annotations

import pytest

from rulekeeper.errors import InputError
from rulekeeper.systems.gods_monsters.archetypal import archetypal_reason
from rulekeeper.systems.gods_monsters.character import BonusPool, GmCharacter
from rulekeeper.systems.gods_monsters.checks import injury_penalty
from rulekeeper.systems.gods_monsters.damage import absorb

from .helpers import TOROMEEN, Table


def test_absorption_order_pool_verve_survival_injuries() -> None:
    c = GmCharacter(survival=4, max_survival=7, verve=3, max_verve=17, bonus_pools=(BonusPool("p", 2),))
    hit = absorb(c, 12, archetypal=True)
    assert (hit.from_pools, hit.from_verve, hit.from_survival, hit.to_injuries) == (2, 3, 4, 3)
    assert hit.character.bonus_pools == ()
    assert (hit.character.verve, hit.character.survival, hit.character.injuries) == (0, 0, 3)


def test_verve_only_for_archetypal_damage() -> None:
    c = GmCharacter(survival=4, max_survival=7, verve=10, max_verve=17)
    hit = absorb(c, 6, archetypal=False)
    assert (hit.from_verve, hit.from_survival, hit.to_injuries) == (0, 4, 2)
    assert hit.character.verve == 10


def test_ineligible_pool_is_skipped() -> None:
    c = GmCharacter(survival=5, max_survival=5, bonus_pools=(BonusPool("mind shield", 4, eligible="mental"),))
    physical = absorb(c, 3, archetypal=False, physical=True)
    assert physical.from_pools == 0 and physical.character.survival == 2
    mental = absorb(c, 3, archetypal=False, physical=False)
    assert mental.from_pools == 3 and mental.character.survival == 5


def test_direct_injuries_bypass_everything() -> None:
    c = GmCharacter(survival=10, max_survival=10, verve=5, max_verve=5, bonus_pools=(BonusPool("p", 5),))
    hit = absorb(c, 9, archetypal=True, direct_injuries=2)
    assert hit.to_injuries == 2 and hit.from_pools == 5 and hit.from_verve == 2 and hit.from_survival == 0


def test_negative_damage_is_refused() -> None:
    with pytest.raises(InputError):
        absorb(GmCharacter(), -1, archetypal=False)
    table = Table({"t": TOROMEEN})
    with pytest.raises(InputError, match="out of range"):
        table.act("damage", "t", amount=-3)


def test_injury_penalty_is_negative_injuries() -> None:
    assert injury_penalty(GmCharacter(injuries=3)) == -3
    assert injury_penalty(GmCharacter()) == 0


@pytest.mark.parametrize(
    ("archetype", "kwargs", "criterion"),
    [
        ("thief", {"roll_against": "evasion"}, "criterion 1"),
        ("monk", {"roll_against": "perception"}, "criterion 1"),
        ("thief", {"roll_against": "agility"}, "criterion 2"),
        ("sorceror", {"roll_against": "intelligence"}, "criterion 2"),
        ("prophet", {"consequence": True}, "criterion 3"),
        ("warrior", {"in_combat": True}, "criterion 4"),
    ],
)
def test_archetypal_criteria(archetype: str, kwargs: dict[str, object], criterion: str) -> None:
    reason = archetypal_reason(GmCharacter(archetype=archetype), **kwargs)  # type: ignore[arg-type]
    assert reason is not None and reason.startswith(criterion)


def test_not_archetypal() -> None:
    assert archetypal_reason(GmCharacter(archetype="thief"), in_combat=True) is None
    assert archetypal_reason(GmCharacter(archetype="warrior"), roll_against="evasion") is None
    assert archetypal_reason(GmCharacter(archetype=""), roll_against="strength") is None


def test_thief_falling_after_failed_climb_uses_verve() -> None:
    table = Table({"k": {"archetype": "thief", "survival": 6, "verve": 8}})
    table.act("damage", "k", amount=5, roll_against="agility")
    assert table.char("k").verve == 3 and table.char("k").survival == 6


def test_mental_harm_asks_willpower() -> None:
    table = Table({"t": {**TOROMEEN, "survival": 1, "willpower": 7}})
    table.act("damage", "t", amount=3, mental=True, dice=[8])
    assert "willpower 7 (-2 2 injuries) = 5 or less" in table.text
    assert table.view("t")["falls_unconscious_at_round_end"] is True


def test_dropping_to_zero_survival_asks_consciousness_roll_without_injuries() -> None:
    table = Table({"t": {**TOROMEEN, "verve": 0, "survival": 3}})
    table.act("damage", "t", amount=3, dice=[10])
    assert table.char("t").injuries == 0
    assert "fortitude 11 or less on d20: rolled 10, succeeds" in table.text


def test_failed_consciousness_roll_knocks_out_at_end_of_round() -> None:
    table = Table({"t": {**TOROMEEN, "verve": 0, "survival": 0}}, automation={"gm.death": "note"})
    table.act("damage", "t", amount=3, dice=[15])
    assert not table.has("t", "unconscious")
    table.wait(10)
    assert table.has("t", "unconscious")
    condition = table.state.condition("t", "unconscious")
    assert condition is not None and condition.until == 10 + 3 * 60


def test_no_second_consciousness_roll_while_falling() -> None:
    table = Table({"t": {**TOROMEEN, "verve": 0, "survival": 0}}, automation={"gm.death": "note"})
    table.act("damage", "t", amount=1, dice=[20])
    table.act("damage", "t", amount=1)  # no dice needed: already going down this round
    assert table.char("t").injuries == 2


def test_add_injuries_directly_and_death_check() -> None:
    table = Table({"t": TOROMEEN}, automation={"gm.death": "prompt"})
    table.act("injure", "t", injuries=1, dice=[2])
    assert table.char("t").injuries == 1 and table.char("t").survival == 7
    table.wait(10)
    # 1 injury does not exceed 7 survival: no death roll is asked.
    assert not table.state.pending
    assert "no risk of death" in table.text


def test_falling_field_applies_to_death_roll() -> None:
    table = Table({"t": {**TOROMEEN, "survival": 0, "verve": 0, "fields": {"falling": 3}}})
    table.act("damage", "t", amount=4, source="falling", direct_injuries=1, dice=[1])
    table.wait(10, dice=[1, 14])  # endurance 15 - 4 injuries + 3 = 14
    assert "+3 falling field" in table.text
    assert not table.has("t", "dying")


def test_damage_interrupts_rest() -> None:
    table = Table({"t": TOROMEEN})
    table.act("rest", "t", kind="night")
    table.act("damage", "t", amount=2)
    assert not table.has("t", "asleep")
    assert "interrupted" in table.text


def test_npc_survival_is_rolled_on_first_damage() -> None:
    table = Table({"orc": {"is_npc": True, "level": 2, "archetype": "warrior"}})
    assert table.char("orc").survival_dice == "2d10"
    table.act("damage", "orc", amount=5, dice=[4, 9])
    assert table.char("orc").max_survival == 13 and table.char("orc").survival == 8
