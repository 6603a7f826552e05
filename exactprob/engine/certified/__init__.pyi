from .law import CertifiedLaw
from .solving import CertifiedSolution, enclose, enclose_graph

__all__ = ["CertifiedLaw", "CertifiedSolution", "enclose", "enclose_graph"]
