"""The notebooks' helpers: the RRF k explorer, charts with Chinese glyphs, the pipeline diagram, the
self-checks and the exercises they check.

It needs the ``[lab]`` extra (matplotlib, ipywidgets, anywidget): ``pip install 'ragmath[lab]'``.
"""

from ragmath.lab import require_lab_extra

require_lab_extra("ragmath.lab.notebook", ("matplotlib", "ipywidgets", "anywidget"))
