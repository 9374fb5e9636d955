import json

from conftest import FLOW_CONFIG  # noqa: F401  (the tests' shared agent settings, imported from here)


def facts_from(mapping: dict[str, list[str]]):
    """A scripted Writer: facts keyed by a word of the message."""
    def reply(messages, schema):
        text = messages[-1]["content"]
        return json.dumps({"facts": next((v for k, v in mapping.items() if k in text), [])})
    return reply
