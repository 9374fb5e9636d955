"""The web page (Gradio): layout and events in blocks, handlers per action, pure HTML in render."""
from .blocks import build_app

__all__ = ["build_app"]
