"""DREAMING_LLM=openai end to end: `doctor`, the web app and the bench, against llama-cpp-python's real server."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from dreaming_agent.__main__ import main
from dreaming_agent.bench.conditions import parse_conditions
from dreaming_agent.bench.runner import Setup, run_scenario
from dreaming_agent.bench.scenario import Scenario
from dreaming_agent.store import make_client
from dreaming_agent.testing import HashEmbedder

from . import SMOLLM_ALIAS, LocalServer, free_port

pytestmark = pytest.mark.model
ROOT = Path(__file__).resolve().parents[2]


def _openai_env(monkeypatch, base_url: str) -> None:
    monkeypatch.setenv("DREAMING_LLM", "openai")
    monkeypatch.setenv("OPENAI_BASE_URL", base_url)
    monkeypatch.delenv("DREAMING_OPENAI_MODEL", raising=False)


def test_doctor_passes_and_says_how_the_schema_is_sent(openai_server, monkeypatch, capsys):
    _openai_env(monkeypatch, openai_server.url + "/v1")
    code = main(["doctor"])
    report = capsys.readouterr().out
    assert code == 0, report
    assert "backend: openai" in report and f"at {openai_server.url}/v1" in report
    assert "threads: the server's own" in report and f"answered by: {SMOLLM_ALIAS}" in report
    assert "structured output: JSON mode plus the schema in the prompt (the server refused json_schema" in report
    assert report.rstrip().endswith("doctor: all checks passed")


def test_doctor_with_no_server_fails_with_the_fix(monkeypatch, capsys):
    _openai_env(monkeypatch, f"http://127.0.0.1:{free_port()}/v1")
    assert main(["doctor"]) == 1
    report = capsys.readouterr().out
    assert "FAILED:" in report and "OPENAI_BASE_URL" in report


def test_the_app_answers_through_the_openai_backend(openai_server, tmp_path):
    from gradio_client import Client

    port = free_port()
    env = {**os.environ, "DREAMING_LLM": "openai", "OPENAI_BASE_URL": openai_server.url + "/v1",
           "DREAMING_DB": str(tmp_path / "app.sqlite3"), "GRADIO_SERVER_PORT": str(port),
           "GRADIO_ANALYTICS_ENABLED": "False", "HF_HUB_OFFLINE": "1", "HF_HUB_DISABLE_TELEMETRY": "1"}
    app = LocalServer([sys.executable, "app.py"], "/", tmp_path / "app.log", port=port, timeout_s=120, env=env,
                      cwd=ROOT).start()
    client = Client(app.url, verbose=False)
    try:
        chat = client.predict("Hello! I live in Lisbon.", "rag", api_name="/chat")[0]
        answer = "".join(part.get("text", "") for part in chat[-1]["content"])
        assert chat[-1]["role"] == "assistant" and answer.strip() and not answer.startswith("⚠️"), answer
    finally:
        client.close()
        app.stop()


def test_the_bench_runs_on_the_openai_backend(openai_llm):
    scenario = Scenario.model_validate({
        "name": "openai-smoke",
        "sessions": [{"id": "s1", "date": "2026-03-02", "turns": ["My cat is called Pimienta."]}],
        "questions": [{"id": "q1", "type": "single", "question": "What is my cat called?", "expect_any": ["Pimienta"]}],
    })
    setup = Setup(openai_llm, HashEmbedder(), make_client(), reply_tokens=24, chat_reply_tokens=8)
    records = [r for c in parse_conditions("B,E") for r in run_scenario(setup, scenario, c, 0)]
    assert [r.condition for r in records] == ["B", "E"]
    assert all(r.answer and r.blocking_llm_calls >= 1 for r in records)
    assert records[0].evidence_recall == 1.0  # naive RAG put the sentence in the prompt the server answered
    assert openai_llm.name == SMOLLM_ALIAS
