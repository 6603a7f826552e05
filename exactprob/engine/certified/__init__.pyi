from .enclosure import Enclosure
from .law import CertifiedLaw
from .solving import CertifiedSolution, enclose, enclose_graph

__all__ = ["CertifiedLaw", "CertifiedSolution", "Enclosure", "enclose", "enclose_graph"]
