"""Every limit on input size and work, in one place; docs/limits.md gives the reason for each.

A limit is generous for a real table and small enough that hostile input finishes in bounded time
and memory with an ``InputError`` naming the limit. Pure constants: the core, the dice and the
adapters all import them from here, so docs/limits.md (checked by a test) cannot drift.
"""

from __future__ import annotations

__all__ = [
    "MAX_ADVANCE_FIRINGS",
    "MAX_CHECK_NUMBER",
    "MAX_DICE",
    "MAX_DICE_NUMBER",
    "MAX_DICE_TOTAL",
    "MAX_DOCUMENT_BYTES",
    "MAX_DURATION_DIGITS",
    "MAX_IMPORT_BYTES",
    "MAX_NAME_CHARS",
    "MAX_NESTING",
    "MAX_NOTATION_CHARS",
    "MAX_PARAM_NUMBER",
    "MAX_POOL",
    "MAX_POOL_DICE",
    "MAX_ROUNDS",
    "MAX_SCENARIO_BYTES",
    "MAX_SCENARIO_STEPS",
    "MAX_SET_VALUE_CHARS",
    "MAX_SIDES",
    "MAX_SIM_WORKERS",
    "MAX_TIMESTAMP",
    "MAX_YAML_NODES",
]

# -- dice notation ------------------------------------------------------------------------------
MAX_DICE = 1_000
MAX_SIDES = 1_000_000
#: Characters of one dice expression.
MAX_NOTATION_CHARS = 1_000
#: The largest number written in dice notation (a count, a side count, a constant).
MAX_DICE_NUMBER = 1_000_000_000
#: The largest total (in absolute value) an expression may reach: exact in a float (2**53).
MAX_DICE_TOTAL = 10**15

# -- checks ---------------------------------------------------------------------------------------
#: Dice in a Wrath & Glory pool as asked for (attribute + skill + bonus dice).
MAX_POOL = 60
#: Dice in a pool after every modifier (a pool of MAX_POOL with as many bonus dice again).
MAX_POOL_DICE = 2 * MAX_POOL
#: Targets, modifiers, DNs and thresholds of ``check`` (absolute value).
MAX_CHECK_NUMBER = 1_000
#: Whole-number and decimal action parameters without a bound of their own (absolute value).
MAX_PARAM_NUMBER = 10**9

# -- game time ------------------------------------------------------------------------------------
#: Rounds one ``round N`` command may play.
MAX_ROUNDS = 1_000
#: Timers one command may fire (``advance`` or ``round``) before it is refused as a whole.
MAX_ADVANCE_FIRINGS = 10_000
#: Digits of one number in a duration (``advance 30s``).
MAX_DURATION_DIGITS = 12

# -- documents ------------------------------------------------------------------------------------
#: A YAML or JSON sheet, settings file or ``--set`` document.
MAX_DOCUMENT_BYTES = 1 << 20
#: An exported campaign read by ``campaign import``.
MAX_IMPORT_BYTES = 32 << 20
#: One scenario file.
MAX_SCENARIO_BYTES = 1 << 20
#: Steps in one scenario file.
MAX_SCENARIO_STEPS = 5_000
#: Nodes of a YAML document once every alias is expanded.
MAX_YAML_NODES = 100_000
#: Levels of nested mappings and lists in a document.
MAX_NESTING = 64
#: Characters in one ``--set FIELD=VALUE`` value.
MAX_SET_VALUE_CHARS = 10_000
#: Characters in a campaign, GM, player or character name.
MAX_NAME_CHARS = 200
#: The latest wall-clock time (seconds since 1970) a campaign or event may record: 9999-12-31.
MAX_TIMESTAMP = 253_402_300_799

# -- the player's seat -----------------------------------------------------------------------------
#: Refused attempts kept per campaign for the GM (``campaign/seat.py``); older ones are dropped.
MAX_REFUSALS_KEPT = 200
#: Worker processes one ``simulate`` may start (``--workers``).
MAX_SIM_WORKERS = 64
#: Characters of a refused attempt's summary kept (a long parameter is cut, not stored whole).
MAX_REFUSAL_CHARS = 500
