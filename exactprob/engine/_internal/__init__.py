"""The engine's internals: bulk exploration, levels, solve order, cyclic components, float
guidance and certificates, exact linear algebra and rounding bounds. Private: only the
engine imports them (an import contract keeps it so)."""
