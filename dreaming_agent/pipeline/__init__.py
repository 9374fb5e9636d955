"""The per-turn pipeline: one module per role, read top to bottom in agent.py."""
