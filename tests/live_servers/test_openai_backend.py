"""OpenAICompatibleLLM against llama-cpp-python's real OpenAI-compatible server serving SmolLM2-135M."""
from __future__ import annotations

import pytest
from test_llm_llamacpp import PET_QUESTION, Pet

from dreaming_agent.errors import BackendUnavailable, ConfigError, ModelNotServed, ModelTimeout
from dreaming_agent.llm import structured_call
from dreaming_agent.llm.base import streamed
from dreaming_agent.llm.openai_compat import OpenAICompatibleLLM

from . import SMOLLM_ALIAS, free_port

pytestmark = pytest.mark.model


HELLO = [{"role": "user", "content": "Say hello."}]


def test_structured_output_falls_back_to_the_schema_the_server_accepts(openai_llm):
    # llama-cpp-python refuses response_format json_schema; its json_object with a schema is a grammar.
    result = structured_call(openai_llm, PET_QUESTION, Pet, lambda: Pet(name="?", legs=0), max_tokens=48)
    assert not result.fell_back, result.error
    assert result.value == Pet(name="Rex", legs=4)
    assert result.prompt_tokens > 0 and result.completion_tokens > 0
    assert openai_llm.schema_mode == "json_object"
    assert "refused json_schema" in openai_llm.structured_output and "response_format" in openai_llm.structured_output
    again = structured_call(openai_llm, PET_QUESTION, Pet, lambda: Pet(name="?", legs=0), max_tokens=48)
    assert again.value == result.value and again.calls == 1  # asked the accepted way straight away


def test_completion_is_deterministic_and_teaches_the_token_ratio(openai_llm):
    first = openai_llm.complete(PET_QUESTION, max_tokens=12, seed=3)
    second = openai_llm.complete(PET_QUESTION, max_tokens=12, seed=3)
    assert first.text and first.text == second.text
    assert 0 < first.completion_tokens <= 12
    assert first.prompt_tokens > 0 and first.duration_ms > 0
    assert openai_llm.chars_per_token != pytest.approx(3.5)  # learnt from the server's usage
    assert openai_llm.name == SMOLLM_ALIAS


def test_stream_sends_the_same_reply_in_pieces(openai_llm):
    # The server caches the prompt: a request that finds it cached evaluates fewer tokens, and on some CPU builds
    # (AVX2) that alone changes the greedy reply. Asked once first, the stream and the completion start alike.
    openai_llm.complete(HELLO, max_tokens=16)
    pieces: list[str] = []
    completion = streamed(openai_llm.stream(HELLO, max_tokens=16), pieces.append)
    assert len(pieces) > 1
    assert "".join(pieces) == completion.text == openai_llm.complete(HELLO, max_tokens=16).text
    assert completion.prompt_tokens > 0 and 0 < completion.completion_tokens <= 16


def test_model_defaults_to_the_first_the_server_lists(openai_server):
    llm = OpenAICompatibleLLM(openai_server.url + "/v1", "no-key", context_window=2048)
    assert llm.name == "openai"  # nothing asked yet
    assert llm.model == SMOLLM_ALIAS and llm.name == SMOLLM_ALIAS


def test_prompt_mode_states_the_schema_in_the_system_message(openai_server):
    llm = OpenAICompatibleLLM(openai_server.url + "/v1", "no-key", SMOLLM_ALIAS, schema_mode="prompt")
    result = structured_call(llm, PET_QUESTION, Pet, lambda: Pet(name="?", legs=0), max_tokens=48)
    assert llm.schema_mode == "prompt" and llm.structured_output == "the schema in the prompt only"
    assert result.calls >= 1 and result.raw  # the unconstrained 135M model may or may not manage the JSON


def test_unreachable_server_says_how_to_start_one():
    base_url = f"http://127.0.0.1:{free_port()}/v1"
    llm = OpenAICompatibleLLM(base_url, "no-key", "any", timeout_s=5)
    with pytest.raises(BackendUnavailable) as caught:
        llm.complete(HELLO)
    message = str(caught.value)
    assert base_url in message and "OPENAI_BASE_URL" in message and "llama_cpp.server" in message
    assert caught.value.backend == "openai" and caught.value.__cause__ is not None
    with pytest.raises(BackendUnavailable, match="OPENAI_BASE_URL"):
        list(llm.stream(HELLO))
    result = structured_call(llm, HELLO, Pet, lambda: Pet(name="?", legs=0))
    assert result.fell_back and result.unavailable and "OPENAI_BASE_URL" in result.error


def test_address_without_v1_says_to_check_the_base_url(openai_server):
    with pytest.raises(ModelNotServed) as caught:
        OpenAICompatibleLLM(openai_server.url, "no-key", SMOLLM_ALIAS).complete(HELLO)
    assert "ends in /v1" in str(caught.value) and "DREAMING_OPENAI_MODEL" in str(caught.value)


def test_prompt_longer_than_the_server_context_says_how_to_fix(openai_server):
    llm = OpenAICompatibleLLM(openai_server.url + "/v1", "no-key", SMOLLM_ALIAS, context_window=100_000)
    with pytest.raises(ConfigError) as caught:
        llm.complete([{"role": "user", "content": "fox " * 3000}])
    assert "DREAMING_CONTEXT_WINDOW" in str(caught.value) and "2048" in str(caught.value)


def test_slow_answer_raises_model_timeout(openai_server):
    llm = OpenAICompatibleLLM(openai_server.url + "/v1", "no-key", SMOLLM_ALIAS, timeout_s=0.05)
    with pytest.raises(ModelTimeout) as caught:
        llm.complete(HELLO, max_tokens=4)
    assert caught.value.backend == "openai" and caught.value.seconds == pytest.approx(0.05)
