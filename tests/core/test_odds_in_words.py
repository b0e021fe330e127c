"""Every check's odds are labelled with what the result means for the character (issue #25 item 6)."""

from __future__ import annotations

from dataclasses import replace
from itertools import product
from typing import Any

import pytest

from rulekeeper.core import get_ruleset
from rulekeeper.core.arc import ArcThreshold
from rulekeeper.core.dice_pool import PoolTest
from rulekeeper.core.roll_under import RollUnder
from rulekeeper.core.stakes import describe_pending
from rulekeeper.core.state import AnyCheck, PendingCheck
from rulekeeper.core.success_roll import SuccessRoll

#: A check of each system's usual shape, to ask every purpose's stakes with.
SAMPLE_CHECKS: dict[str, AnyCheck] = {
    "gurps": SuccessRoll(kind="gurps.test", label="ana's roll", base=10),
    "gods-and-monsters": RollUnder(kind="gm.test", label="ana's roll", score=10),
    "wrath-and-glory": PoolTest(kind="wg.test", label="ana's pool", pool=4, dn=3),
    "vi-viii-x": ArcThreshold(kind="arc", label="ana's check", stats=6, threshold=8),
}
#: Data a purpose reads to word its stakes (a Determination's Wounds, an attack's target).
DATA: dict[str, Any] = {"wounds": 3, "target": "bo", "attacker": "bo", "against": "reaction"}


def _declared(system: str) -> list[str]:
    ruleset = get_ruleset(system)
    tables = ruleset.tables
    tables.load_deferred()  # the feats load on first use: load them to see their purposes
    return sorted({*tables.checks, *tables.check_families})


@pytest.mark.parametrize("system", sorted(SAMPLE_CHECKS))
def test_every_declared_purpose_with_stakes_labels_its_odds_in_words(system: str) -> None:
    ruleset = get_ruleset(system)
    check = SAMPLE_CHECKS[system]
    labelled = 0
    for purpose in _declared(system):
        spec, _ = ruleset.tables.check(purpose)
        if spec.stakes is None:
            continue
        stakes = spec.stakes(purpose, check, "ana", DATA)
        pending = PendingCheck(id=1, check=check, purpose=purpose, actor="ana", created=0, stakes=stakes)
        label = describe_pending(pending)["label"]
        words = label.rsplit(" ", 1)[0]
        assert words.strip().lower() not in ("", "success", "succeeds"), (purpose, label)
        assert "{" not in label, (purpose, label)
        labelled += 1
    assert labelled >= 3, f"{system}: too few purposes declare stakes ({labelled})"


def test_a_purpose_without_stakes_still_says_what_succeeding_means() -> None:
    check = SuccessRoll(kind="gurps.will", label="ana's Will against stress", base=10)
    label = describe_pending(PendingCheck(id=1, check=check, purpose="x", actor="ana", created=0))["label"]
    assert label == "ana's Will against stress succeeds 50.00%"


def test_the_death_contest_reads_starts_dying_not_success() -> None:
    ruleset = get_ruleset("gm")
    check = SAMPLE_CHECKS["gods-and-monsters"]
    spec, _ = ruleset.tables.check("death")
    assert spec.stakes is not None
    stakes = spec.stakes("death", check, "ana", {})
    pending = PendingCheck(id=1, check=check, purpose="death", actor="ana", created=0, stakes=stakes)
    assert describe_pending(pending)["label"] == f"ana starts dying {float(check.probability()):.2%}"


def test_determination_reads_the_chance_to_shrug_off_every_wound() -> None:
    from rulekeeper.systems.wrath_glory.damage import DETERMINATION_PURPOSE

    ruleset = get_ruleset("wg")
    check = PoolTest(kind="wg.determination", label="ana's Determination", pool=3, dn=1)
    spec, _ = ruleset.tables.check(DETERMINATION_PURPOSE)
    assert spec.stakes is not None
    stakes = spec.stakes(DETERMINATION_PURPOSE, check, "ana", {"wounds": 3})
    assert stakes is not None
    pending = replace(PendingCheck(1, check, DETERMINATION_PURPOSE, "ana", 0), stakes=stakes)
    # Icons by face (seed 003): 4 and 5 one, 6 two. All three Wounds become Shock on 3+ Icons.
    icons = {1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 2}
    hits = sum(1 for dice in product(range(1, 7), repeat=3) if sum(icons[d] for d in dice) >= 3)
    assert describe_pending(pending)["label"] == f"ana shrugs off all 3 Wound(s) {hits / 216:.2%}"
