import json
import re

from conftest import FLOW_CONFIG  # noqa: F401  (the tests' shared agent settings, imported from here)


def facts_from(mapping: dict[str, list[str]]):
    """A scripted Writer: facts keyed by a word of the message."""
    def reply(messages, schema):
        text = messages[-1]["content"]
        return json.dumps({"facts": next((v for k, v in mapping.items() if k in text), [])})
    return reply


def streamed(wrapper, reply: str, asked_again: str | None = None) -> list[str | None]:
    """What `wrapper(on_text)` passes on of `reply`, given word by word, as the page would receive it."""
    passed: list[str | None] = []
    held = wrapper(passed.append)
    for piece in re.findall(r"\S+\s*", reply):
        held(piece)
    if asked_again is not None:
        held(None)
        for piece in re.findall(r"\S+\s*", asked_again):
            held(piece)
    return passed
