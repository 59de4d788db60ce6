"""The teachers' grade command: ``python -m helpers.grading SUBMISSIONS/ --out grades.csv``.

Readers never import this package; a student's ``check()`` lives in ``helpers.exercises``.

* ``runner``       the command: run each notebook handed in, mark each recorded answer, write the reports
* ``submissions``  which files count, whose they are, which course notebook each one is
* ``record``       runs in the student's kernel: ``check(...)`` records the answer instead of judging it
* ``marks``        the verdict of one recorded answer (the real checker, outside the student's kernel)
* ``sandbox``      a recorded function re-created in a child process of its own, and the answer codec
* ``jail``         the private copy of the package a graded process starts from, another user, bubblewrap; ``Isolation.summary()`` says which
* ``guard``        the audit hook (a guard against accidents, not isolation) in each private copy as ``sitecustomize.py``
* ``launch``       starts one graded process inside its resource limits
* ``report``       the CSV, the per-answer details and the summary, written row by row

This file stays free of imports: the student's kernel imports ``helpers.grading.record`` inside the
private copy, where ``helpers.exercises`` is a stand-in without the answer key.
"""
