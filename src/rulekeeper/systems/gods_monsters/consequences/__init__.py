"""Gods & Monsters seed 002, "Play the Game: Actions and consequences": one section per topic.

Pure rules live in modules named for their topic (:mod:`.falling`, :mod:`.jumping`,
:mod:`.ailments` ...); the ``*_play`` modules apply them to a game and each declares its
:class:`~rulekeeper.core.section.Section` (``FALLING_SECTION`` ...): its actions, check kinds,
what its checks and timers do, and its hooks. The ruleset lists the sections; nothing here
gathers them, so the survival rules (seed 000) never import this package's topics back.
"""
