"""Sphinx configuration for the exactprob documentation.

Build the HTML pages and check every example with::

    python -m sphinx -W --keep-going -b html docs docs/_build/html
    python -m sphinx -W --keep-going -b doctest docs docs/_build/doctest
"""

from __future__ import annotations

import os
import sys

# autodoc imports the package from the repository root, installed or not.
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, ROOT)

import exactprob  # noqa: E402

# -- Project information ------------------------------------------------------------------
project = "exactprob"
author = "the exactprob developers"
copyright = "the exactprob developers"
version = exactprob.__version__
release = exactprob.__version__

# -- General configuration ----------------------------------------------------------------
extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
    "matplotlib.sphinxext.plot_directive",
]
exclude_patterns = ["_build"]
root_doc = "index"
nitpicky = False

# -- autodoc and napoleon: numpydoc-style docstrings --------------------------------------
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": True}
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False

# -- doctest ------------------------------------------------------------------------------
# ``sphinx-build -b doctest`` checks the ``.. doctest::`` blocks of these pages. The
# ``>>>`` examples inside docstrings are run by ``pytest --doctest-modules`` in their own
# module's namespace, where they belong; run here, without those globals, they would fail.
doctest_test_doctest_blocks = ""
doctest_global_setup = "from importlib.util import find_spec"

# -- HTML ---------------------------------------------------------------------------------
html_theme = "alabaster"
html_title = f"exactprob {release}"
html_theme_options = {
    "description": "Exact probabilities for games of chance",
    "fixed_sidebar": False,
}

# one PNG per figure (the default also writes a hi-res PNG and a PDF: slower builds)
plot_formats = [("png", 100)]
