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

import exactprob

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
    # MathJax 3 served from the built site itself (_static/mathjax), not from a CDN, so
    # that every formula renders offline and behind a firewall.
    "sphinx-mathjax-offline",
    "sphinx.ext.intersphinx",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
    "matplotlib.sphinxext.plot_directive",
    # Derivations of models written when the docs are built (``exactprob-derivation``).
    "exactprob.sphinxext",
]
exclude_patterns = ["_build", "_inventories"]
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
# The pages use no name the project deprecated (a deprecated call fails its example).
doctest_global_setup = """
from importlib.util import find_spec
import warnings
from exactprob.errors import ExactProbDeprecationWarning
warnings.simplefilter("error", ExactProbDeprecationWarning)
"""

# -- intersphinx: links into the Python and sympy documentation --------------------------
# The inventories are read from docs/_inventories (taken from Debian's python3.11-doc and
# python-sympy-doc packages; see the README there), so that the build needs no network
# and gives the same pages everywhere. The links themselves point at the versions the
# inventories describe.
intersphinx_mapping = {
    "python": ("https://docs.python.org/3.11", "_inventories/python-3.11.inv"),
    "sympy": ("https://docs.sympy.org/1.11", "_inventories/sympy-1.11.inv"),
}

# -- HTML ---------------------------------------------------------------------------------
# Furo: a theme made for technical documentation, whose content column holds long code
# blocks and wide tables (the narrow default clipped them) and which has a dark mode.
html_theme = "furo"
html_title = f"exactprob {release}"
html_favicon = "_static/favicon.svg"

# one PNG per figure (the default also writes a hi-res PNG and a PDF: slower builds)
plot_formats = [("png", 100)]
