"""Run-time plumbing shared by notebooks, tests and commands (no model code).

* ``env``      quick mode (``NB_QUICK=1``), seeding, the device, the set-up check of notebook 00
* ``errors``   the bilingual error types (``HelpersError`` and its kinds) and the argument checks
* ``safeio``   bounds and diagnoses for checkpoint files (what ``helpers.checkpoint`` checks first)
* ``outputs``  where commands write: reserved outputs, stamped build folders, backups

``HelpersError``, ``is_quick``, ``seed_everything`` and the rest are also importable from ``helpers``.
"""
