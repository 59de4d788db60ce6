"""Fast paths: the same formulas as the chapter's code, arranged to train faster.

* ``teacher_forcing``  the teacher-forced ``forward`` of the Bahdanau and input-feeding Luong decoders,
  with the work that does not depend on t moved out of the loop (``helpers.decoders`` calls it; the
  tests hold it to ``run_steps`` within 1e-6)
"""
