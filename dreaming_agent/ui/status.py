"""The status line in plain words (which model, how good, where memory lives, how to get a better one), with the
technical details in a fold: pure functions of plain fields, every string escaped."""
from __future__ import annotations

from html import escape
from typing import Mapping, NamedTuple

BETTER_MODEL = "qwen2.5:3b"


class StatusWords(NamedTuple):
    model: str
    quality: str
    memory: str
    better: str  # "" when nothing better is on offer


def status_words(*, backend: str, model: str, weak: bool, better_model: str = BETTER_MODEL) -> StatusWords:
    """What a person wants to know about the model that answers, from the backend and the model's name."""
    if backend in ("ollama", "openai"):
        quality = "a full-size model served on this machine: good answers"
    elif backend in ("injected", "scripted"):
        quality = "a stand-in model for tests and demos: canned answers"
    elif weak:
        quality = "a tiny model (135M): answers will be weak"
    elif "0.5b" in model.lower():
        quality = "a small model (0.5B): good at what you said plainly, often wrong on harder questions"
    else:
        quality = "the model you configured"
    better = ""
    if backend == "embedded":
        better = (f"For better answers, install Ollama (ollama.com), run <code>ollama pull {escape(better_model)}</code> "
                  "and start the app again: it is picked up by itself.")
    memory = "only in this browser tab, deleted when you close it (💾 Download my memory keeps a copy)"
    return StatusWords(model, quality, memory, better)


def status_html(words: StatusWords, details: Mapping[str, str], *, weak_model: bool = False) -> str:
    """One plain line, the hint to a better model, and the backend, reason, embedder and threads in a fold."""
    technical = " · ".join(f"{escape(k)}: {escape(str(v))}" for k, v in details.items())
    better = f'<div class="{"da-weak" if weak_model else "da-better"}">{words.better}</div>' if words.better else ""
    return (f'<div class="da-status">Model: <b>{escape(words.model)}</b>, {escape(words.quality)}. '
            f"Your memory: {escape(words.memory)}.</div>{better}"
            f'<details class="da-status-more"><summary>Technical details</summary>{technical}</details>')
