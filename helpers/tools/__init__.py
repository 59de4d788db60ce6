"""Maintainer commands; notebooks and readers never import these.

* ``python -m helpers.tools.bench``      every benchmark side by side (``make bench``, docs/benchmarks.md)
* ``python -m helpers.tools.evaluate``   the evaluation table of the shipped models (``make evaluate``)
* ``python -m helpers.tools.pretrain``   retrain the shipped models reproducibly (``make pretrained``)
* ``python -m helpers.tools.notebooks``  execute / check the committed notebooks (``make notebooks``)
"""
