"""Real servers started by the tests on 127.0.0.1: llama-cpp-python's OpenAI-compatible server and Chroma."""
from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from dreaming_agent.llm.llamacpp import default_gguf_path

SMOLLM_ALIAS = "smollm2-135m"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalServer:
    """One server process on a fixed free port; `stop` and `start` again keep the port (a server that comes back)."""

    def __init__(self, command: list[str], ready_path: str, log: Path, *, port: int, timeout_s: float = 60,
                 env: dict[str, str] | None = None, cwd: Path | None = None):
        self.command, self.ready_path, self.log, self.port, self.timeout_s = command, ready_path, log, port, timeout_s
        self.env, self.cwd = env, cwd
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "LocalServer":
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(self.command, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, env=self.env, cwd=self.cwd)
        deadline = time.monotonic() + self.timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.command[0]} exited with {self.process.returncode}:\n{self._log_tail()}")
            try:
                with urllib.request.urlopen(self.url + self.ready_path, timeout=1) as response:
                    if response.status == 200:
                        return self
            except (urllib.error.URLError, OSError):
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(
            f"{self.command[0]} not ready on port {self.port} within {self.timeout_s} s:\n{self._log_tail()}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None

    def _log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""


def llama_server(folder: Path, *, context_window: int = 2048, threads: int = 1) -> LocalServer:
    """SmolLM2-135M behind `python -m llama_cpp.server` (the llama-cpp-python[server] extra).

    One thread by default: the test process shares the CPUs, and llama.cpp threads that wait for a core stall."""
    port = free_port()
    command = [sys.executable, "-m", "llama_cpp.server", "--model", default_gguf_path(), "--model_alias", SMOLLM_ALIAS,
               "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(context_window), "--n_threads", str(threads)]
    return LocalServer(command, "/v1/models", folder / "llama-server.log", port=port)


def chroma_server(folder: Path) -> LocalServer:
    """`chroma run` on a persistent folder, so a restarted server finds its collections again."""
    chroma = shutil.which("chroma") or str(Path(sys.executable).parent / "chroma")
    port = free_port()
    command = [chroma, "run", "--path", str(folder / "chroma"), "--host", "127.0.0.1", "--port", str(port)]
    return LocalServer(command, "/api/v2/heartbeat", folder / "chroma-server.log", port=port)
