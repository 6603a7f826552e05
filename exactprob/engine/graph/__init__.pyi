from .action_values import graph_action_values, model_action_values
from .exploring import check_model, components_reached, explore, start_states
from .state_graph import GraphStates, StateGraph, id_in, paused_garbage_collection

__all__ = [
    "GraphStates",
    "StateGraph",
    "check_model",
    "components_reached",
    "explore",
    "graph_action_values",
    "id_in",
    "model_action_values",
    "paused_garbage_collection",
    "start_states",
]
