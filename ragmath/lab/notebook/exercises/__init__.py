"""Exercise definitions, one module per notebook (``nb02`` for notebook 02).

See ragmath.lab.notebook.selfcheck."""
