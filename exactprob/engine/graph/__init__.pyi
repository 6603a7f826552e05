from .exploring import check_model, components_reached, explore, start_states
from .forward import Counter, Pushed, check_cap, count_distribution, move_counts, push_forward
from .state_graph import GraphStates, StateGraph, id_in, paused_garbage_collection

__all__ = [
    "Counter",
    "GraphStates",
    "Pushed",
    "StateGraph",
    "check_cap",
    "check_model",
    "components_reached",
    "count_distribution",
    "explore",
    "id_in",
    "move_counts",
    "paused_garbage_collection",
    "push_forward",
    "start_states",
]
