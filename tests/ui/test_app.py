"""app.py stays thin: importing it builds nothing; running it reads the settings from flags and environment."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_importing_app_builds_and_launches_nothing():
    probe = run("-c", "import sys, app; print(sorted(m for m in ('gradio', 'llama_cpp', 'chromadb') if m in sys.modules))")
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.strip() == "[]"


def test_app_takes_every_setting_as_a_flag():
    shown = run("app.py", "--help")
    assert shown.returncode == 0, shown.stderr
    for flag, env in (("--llm", "DREAMING_LLM"), ("--gguf", "DREAMING_GGUF"), ("--preset", "DREAMING_PRESET")):
        assert flag in shown.stdout and env in shown.stdout
