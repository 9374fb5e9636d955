"""OllamaLLM against a local HTTP server that speaks the part of the Ollama API the client uses."""
from __future__ import annotations

import json
import re
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from pydantic import BaseModel

from dreaming_agent.errors import BackendUnavailable, ModelNotPulled, ModelTimeout
from dreaming_agent.llm import available_cpus, structured_call
from dreaming_agent.llm.base import streamed
from dreaming_agent.llm.ollama import OllamaLLM


class City(BaseModel):
    name: str
    country: str


class FakeOllama:
    """Serves /api/chat: model "slow" answers late, "broken" fails with 500, unknown models get 404."""

    models = {"tiny", "slow", "broken"}

    def __init__(self):
        self.requests: list[dict] = []
        self.reply = json.dumps({"name": "Lyon", "country": "France"})
        self.prompt_eval_count = 42
        self.release = threading.Event()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.host = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def stop(self):
        self.release.set()
        self.server.shutdown()
        self.server.server_close()

    def _handler(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep pytest output clean
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                fake.requests.append({"path": self.path, **body})
                model = body.get("model")
                if self.path != "/api/chat" or model not in fake.models:
                    return self._send(404, {"error": f"model '{model}' not found"})
                if model == "broken":
                    return self._send(500, {"error": "llama runner process has terminated"})
                if model == "slow":
                    fake.release.wait(5)
                if body.get("stream"):
                    return self._stream(model)
                self._send(200, {
                    "model": model,
                    "created_at": "2025-01-01T00:00:00Z",
                    "message": {"role": "assistant", "content": fake.reply},
                    "done": True,
                    "done_reason": "stop",
                    "total_duration": 12_000_000,
                    "prompt_eval_count": fake.prompt_eval_count,
                    "eval_count": 7,
                })

            def _stream(self, model: str):
                """One JSON line per word of the reply, as Ollama streams; usage on the last ("done") line."""
                self.send_response(200)
                self.send_header("Content-Type", "application/x-ndjson")
                self.end_headers()
                for word in re.findall(r"\S+\s*", fake.reply):
                    line = {"model": model, "created_at": "2025-01-01T00:00:00Z", "done": False,
                            "message": {"role": "assistant", "content": word}}
                    self.wfile.write(json.dumps(line).encode() + b"\n")
                    self.wfile.flush()
                self.wfile.write(json.dumps({
                    "model": model, "created_at": "2025-01-01T00:00:00Z", "done": True, "done_reason": "stop",
                    "message": {"role": "assistant", "content": ""},
                    "prompt_eval_count": fake.prompt_eval_count, "eval_count": 7,
                }).encode() + b"\n")

            def _send(self, status: int, payload: dict):
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler


@pytest.fixture
def fake_ollama():
    fake = FakeOllama()
    yield fake
    fake.stop()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


QUESTION = [{"role": "user", "content": "Name a French city as JSON."}]


def test_request_carries_schema_and_deterministic_options(fake_ollama):
    llm = OllamaLLM("tiny", fake_ollama.host, num_ctx=2048, threads=3)
    schema = City.model_json_schema()
    completion = llm.complete(QUESTION, schema=schema, max_tokens=64, seed=7)
    sent = fake_ollama.requests[-1]
    assert sent["path"] == "/api/chat"
    assert sent["model"] == "tiny"
    assert sent["format"] == schema
    assert sent["stream"] is False
    assert sent["options"] == {"temperature": 0, "seed": 7, "num_ctx": 2048, "num_thread": 3, "num_predict": 64}
    assert sent["messages"] == QUESTION
    assert completion.text == fake_ollama.reply
    assert (completion.prompt_tokens, completion.completion_tokens) == (42, 7)
    assert completion.duration_ms > 0


def test_threads_default_to_available_cpus_and_reply_is_clamped_to_context(fake_ollama):
    llm = OllamaLLM("tiny", fake_ollama.host, num_ctx=512)
    content = "word " * 300
    llm.complete([{"role": "user", "content": content}], max_tokens=400)
    sent = fake_ollama.requests[-1]
    assert sent["options"]["num_thread"] == available_cpus()
    assert 1 <= sent["options"]["num_predict"] <= 512 - llm.count_tokens(content)
    assert sent.get("format") is None


def test_structured_call_parses_the_schema_reply(fake_ollama):
    result = structured_call(OllamaLLM("tiny", fake_ollama.host), QUESTION, City, lambda: City(name="?", country="?"))
    assert not result.fell_back
    assert result.value == City(name="Lyon", country="France")
    assert result.prompt_tokens == 42 and result.completion_tokens == 7


def test_count_tokens_learns_the_ratio_from_prompt_eval_count(fake_ollama):
    llm = OllamaLLM("tiny", fake_ollama.host)
    assert llm.count_tokens("x" * 35) == 10  # the base-class prior, 3.5 chars per token
    fake_ollama.prompt_eval_count = 200
    llm.complete([{"role": "user", "content": "y" * 400}])  # 2 chars per token observed
    assert llm.chars_per_token == pytest.approx((700 + 400) / (200 + 200))
    assert llm.count_tokens("x" * 110) == 40


def test_cached_prompt_counts_do_not_skew_the_ratio(fake_ollama):
    llm = OllamaLLM("tiny", fake_ollama.host)
    fake_ollama.prompt_eval_count = 1  # Ollama reports only the uncached tail of a cached prompt
    completion = llm.complete([{"role": "user", "content": "z" * 400}])
    assert completion.prompt_tokens == 1
    assert llm.chars_per_token == pytest.approx(3.5)


def test_unreachable_server_names_ollama_host_and_how_to_start():
    host = f"http://127.0.0.1:{_free_port()}"
    with pytest.raises(BackendUnavailable) as caught:
        OllamaLLM("qwen2.5:3b", host, timeout_s=5).complete(QUESTION)
    message = str(caught.value)
    assert "OLLAMA_HOST" in message and host in message
    assert "ollama pull qwen2.5:3b" in message and "ollama serve" in message
    assert caught.value.__cause__ is not None


def test_unreachable_server_makes_structured_call_fall_back_with_the_reason():
    llm = OllamaLLM("tiny", f"http://127.0.0.1:{_free_port()}", timeout_s=5)
    result = structured_call(llm, QUESTION, City, lambda: City(name="?", country="?"))
    assert result.fell_back and result.value.name == "?"
    assert "OLLAMA_HOST" in result.error


def test_unknown_model_says_to_pull_it(fake_ollama):
    with pytest.raises(ModelNotPulled) as caught:
        OllamaLLM("llama9:1t", fake_ollama.host).complete(QUESTION)
    assert "ollama pull llama9:1t" in str(caught.value)
    assert caught.value.model == "llama9:1t"


def test_server_error_is_backend_unavailable_with_its_reason(fake_ollama):
    with pytest.raises(BackendUnavailable) as caught:
        OllamaLLM("broken", fake_ollama.host).complete(QUESTION)
    assert not isinstance(caught.value, ModelNotPulled)
    assert "llama runner process has terminated" in str(caught.value)


def test_slow_model_raises_model_timeout(fake_ollama):
    with pytest.raises(ModelTimeout) as caught:
        OllamaLLM("slow", fake_ollama.host, timeout_s=0.3).complete(QUESTION)
    assert caught.value.backend == "ollama"
    assert caught.value.seconds == pytest.approx(0.3)


def test_stream_sends_the_reply_in_pieces_with_the_same_options(fake_ollama):
    fake_ollama.reply = "Lyon is in France, on the Rhône."
    llm = OllamaLLM("tiny", fake_ollama.host, num_ctx=2048, threads=3)
    pieces: list[str] = []
    completion = streamed(llm.stream(QUESTION, max_tokens=64, seed=7), pieces.append)
    sent = fake_ollama.requests[-1]
    assert sent["stream"] is True and sent.get("format") is None
    assert sent["options"] == {"temperature": 0, "seed": 7, "num_ctx": 2048, "num_thread": 3, "num_predict": 64}
    assert len(pieces) == 7 and "".join(pieces) == completion.text == fake_ollama.reply
    assert (completion.prompt_tokens, completion.completion_tokens) == (42, 7)


def test_stream_failures_are_the_same_typed_errors(fake_ollama):
    with pytest.raises(ModelNotPulled):
        list(OllamaLLM("llama9:1t", fake_ollama.host).stream(QUESTION))
    with pytest.raises(BackendUnavailable, match="llama runner process has terminated"):
        list(OllamaLLM("broken", fake_ollama.host).stream(QUESTION))
    with pytest.raises(ModelTimeout):
        list(OllamaLLM("slow", fake_ollama.host, timeout_s=0.3).stream(QUESTION))
    with pytest.raises(BackendUnavailable, match="OLLAMA_HOST"):
        list(OllamaLLM("tiny", f"http://127.0.0.1:{_free_port()}", timeout_s=5).stream(QUESTION))
