"""The book's extras shown in lessons (notebooks 04 and 05b): code a reader runs, not the chapter's model.

* ``kernel_regression``  Nadaraya-Watson kernel regression: soft attention with numbers (notebook 04)
* ``padding``            padding in a batch, measured: the mask and the packing, one at a time (05b, extra 1)
* ``localp``             local-p attention trained for real: where its predicted window centres land (05b)
* ``localp_results``     the precomputed local-p run that 05b loads (``localp_results.json``), and the
  command that regenerates it
* ``local_panels``       the weights of Luong et al.'s Fig. 7 analogue: global, local-m, local-p and gold (05b)
"""
