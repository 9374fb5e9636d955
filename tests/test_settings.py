import argparse

import pytest

from dreaming_agent.errors import ConfigError
from dreaming_agent.settings import Settings, add_arguments, from_args


def test_defaults_are_the_offline_embedded_setup():
    s = Settings.load({})
    assert (s.llm, s.embedder, s.db, s.context_window, s.reply_reserve, s.instruction_reserve) == (
        "embedded", "embedded", None, 4096, 512, 300)
    assert s.chroma_mode == "in-process ephemeral"


def test_environment_then_flags_then_preset():
    env = {"DREAMING_PRESET": "seed", "OLLAMA_HOST": "http://127.0.0.1:9999", "CHROMA_HOST": "127.0.0.1", "CHROMA_PORT": "8123"}
    s = Settings.load(env)
    assert (s.llm, s.ollama_model, s.embedder) == ("ollama", "qwen2.5:3b", "BAAI/bge-m3")
    assert s.ollama_host == "http://127.0.0.1:9999" and s.chroma_mode == "server 127.0.0.1:8123"
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    flagged = from_args(parser.parse_args(["--embedder", "/models/e5", "--threads", "3"]), env)
    assert flagged.embedder == "/models/e5" and flagged.threads == 3 and flagged.llm == "ollama"


@pytest.mark.parametrize("env", [{"DREAMING_LLM": "gpt"}, {"DREAMING_PRESET": "nope"}, {"DREAMING_THREADS": "0"}])
def test_bad_settings_are_clear_errors(env):
    with pytest.raises(ConfigError):
        Settings.load(env)


def test_openai_backend_reads_its_server_key_and_model_and_hides_the_key():
    env = {"DREAMING_LLM": "openai", "OPENAI_BASE_URL": "http://127.0.0.1:8000/v1", "OPENAI_API_KEY": "sk-secret",
           "DREAMING_OPENAI_MODEL": "Qwen/Qwen2.5-3B-Instruct"}
    s = Settings.load(env)
    assert (s.llm, s.openai_base_url, s.openai_api_key, s.openai_model) == (
        "openai", "http://127.0.0.1:8000/v1", "sk-secret", "Qwen/Qwen2.5-3B-Instruct")
    assert "sk-secret" not in repr(s)
    assert Settings.load({"DREAMING_LLM": "openai"}).openai_model is None  # the first model the server lists


def test_the_writer_reads_a_language_no_module_knows_only_when_asked(embedder):
    from dreaming_agent.testing import ScriptedLLM
    from dreaming_agent.wiring import build_agent

    assert Settings.load({}).writer_any_language is False
    asked = Settings.load({"DREAMING_WRITER_ANY_LANGUAGE": "true"})
    assert asked.writer_any_language is True
    agent = build_agent(asked, llm=ScriptedLLM(), embedder=embedder)
    try:
        assert agent.config.writer.any_language is True
    finally:
        agent.close()
