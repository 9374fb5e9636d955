"""The small-window layers: conversation window with rolling summary, and the prompt budget."""
