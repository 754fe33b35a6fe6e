"""Training, rendering of training data and experiments for the shipped models (``models/``).

Each script runs from the repository root as documented in ``models/MODEL_CARD.md``
(``python -m training.train_index ...``); most need the ``train`` extra (PyTorch). The running
application never imports this package; evaluation tools of ``vision`` that read the real
photographs' splits do (``vision.real_sets``, ``vision.stills``, ``vision.corner_eval``).
"""
