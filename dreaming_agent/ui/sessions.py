"""One agent per browser session: its own throwaway Store and index namespace, the model and embedder shared."""
from __future__ import annotations

import hashlib
import shutil
import tempfile
import threading
import uuid
from pathlib import Path

from ..embed.base import Embedder
from ..errors import InvalidInput
from ..llm.base import LLM
from ..pipeline.agent import Agent, AgentConfig
from ..settings import Settings
from ..store import Store
from ..wiring import build_agent
from .live import LiveChat


class Sessions:
    """Agents keyed by Gradio's session hash; nothing in one is reachable from another."""

    def __init__(self, settings: Settings, *, llm: LLM, embedder: Embedder, client,
                 config: AgentConfig | None = None):
        self.settings, self.llm, self.embedder, self.client, self.config = settings, llm, embedder, client, config
        self._agents: dict[str, Agent] = {}
        self._live: dict[str, LiveChat] = {}
        self._lock = threading.Lock()
        self._files = Path(tempfile.mkdtemp(prefix="dreaming-files-"))  # downloads, removed with their session

    def agent(self, session_hash: str | None) -> Agent:
        """This session's agent, created on its first request."""
        if not session_hash:
            raise InvalidInput("Gradio gave no session hash; the request cannot be tied to a memory.")
        with self._lock:
            agent = self._agents.get(session_hash)
            if agent is None:
                agent = build_agent(
                    self.settings, llm=self.llm, embedder=self.embedder, client=self.client,
                    store=Store(),  # ephemeral: a temporary file removed on close, or at exit at the latest
                    index_namespace=f"web-{uuid.uuid4().hex[:12]}", config=self.config,
                )
                self._agents[session_hash] = agent
            return agent

    def live(self, session_hash: str) -> LiveChat:
        """This session's turns under way, shared by the events of its tab so a message sent while busy waits."""
        with self._lock:
            return self._live.setdefault(session_hash, LiveChat())

    def folder(self, session_hash: str) -> Path:
        """Where this session's downloads are written (the name does not reveal the session hash)."""
        return self._files / hashlib.sha256(session_hash.encode()).hexdigest()[:16]

    def release(self, session_hash: str | None) -> bool:
        """Forget a session's memory: stop its Writer, drop its index collections, delete its database."""
        with self._lock:
            agent = self._agents.pop(session_hash, None) if session_hash else None
            self._live.pop(session_hash, None)
        if agent is None:
            return False
        shutil.rmtree(self.folder(session_hash), ignore_errors=True)
        agent.close()
        agent.index.drop()
        agent.store.close()
        return True

    def release_all(self) -> None:
        for session_hash in list(self._agents):
            self.release(session_hash)
        shutil.rmtree(self._files, ignore_errors=True)

    def __contains__(self, session_hash: str) -> bool:
        return session_hash in self._agents

    def __len__(self) -> int:
        return len(self._agents)
