"""``rulecoref view``: self-contained HTML pages that show a batch's chains.

``model`` holds what a page shows (chains, provenance, the gold diff), ``page`` renders HTML with
the inlined ``viewer.css`` and ``viewer.js``, ``build`` reads documents and writes the pages.
"""

from .build import Built, build_view, load_view
from .model import DocView, antecedent_links
from .page import document_page, index_page

__all__ = ["Built", "DocView", "antecedent_links", "build_view", "document_page", "index_page", "load_view"]
