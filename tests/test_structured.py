import json

from pydantic import BaseModel

from dreaming_agent.errors import BackendUnavailable, ModelTimeout
from dreaming_agent.llm.structured import structured_call
from dreaming_agent.testing import ScriptedLLM


class Pet(BaseModel):
    name: str
    legs: int


MESSAGES = [{"role": "user", "content": "describe a pet"}]
FALLBACK = lambda: Pet(name="fallback", legs=0)  # noqa: E731


def test_valid_output_parses_and_sends_the_schema():
    llm = ScriptedLLM({"Pet": ['{"name": "Miso", "legs": 4}']})
    result = structured_call(llm, MESSAGES, Pet, FALLBACK)
    assert result.value == Pet(name="Miso", legs=4)
    assert not result.retried and not result.fell_back and result.calls == 1


def test_invalid_output_is_retried_once_with_the_error():
    llm = ScriptedLLM({"Pet": ['{"name": "Miso"}', '```json\n{"name": "Miso", "legs": 4}\n```']})
    result = structured_call(llm, MESSAGES, Pet, FALLBACK)
    assert result.value.legs == 4 and result.retried and not result.fell_back
    retry_prompt = llm.calls[1][1][-1]["content"]
    assert "legs" in retry_prompt and "Field required" in retry_prompt
    assert result.raw == ['{"name": "Miso"}', '```json\n{"name": "Miso", "legs": 4}\n```']


def test_two_bad_outputs_fall_back_and_keep_the_raw_text():
    llm = ScriptedLLM({"Pet": ["", "not json at all"]})
    result = structured_call(llm, MESSAGES, Pet, FALLBACK)
    assert result.fell_back and result.value.name == "fallback" and result.raw == ["", "not json at all"]
    assert result.error


def test_wrong_schema_falls_back():
    llm = ScriptedLLM({"Pet": [json.dumps({"species": "cat"})] * 2})
    assert structured_call(llm, MESSAGES, Pet, FALLBACK).fell_back


def test_unreachable_and_timeout_fall_back_marked_unavailable():
    for error in (BackendUnavailable("down", backend="ollama"), ModelTimeout(5, "ollama")):
        result = structured_call(ScriptedLLM({"Pet": [error]}), MESSAGES, Pet, FALLBACK)
        assert result.fell_back and result.unavailable and result.calls == 0 and result.error
