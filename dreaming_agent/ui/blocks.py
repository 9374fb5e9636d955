"""The Gradio page: layout, then events. Each event finds the visitor's own agent, then calls a handler."""
from __future__ import annotations

import atexit
from types import SimpleNamespace

import gradio as gr

from .. import wiring
from ..embed.base import Embedder
from ..llm.base import LLM
from ..pipeline.agent import AgentConfig
from ..settings import Settings
from . import handlers, render
from .sessions import Sessions

LEARNING_POLL_S = 1.0
# Visitors wait on the shared model anyway (llama.cpp takes one call at a time); a few events may run
# side by side so that one visitor's long answer does not hold up another's memory panels.
CONCURRENT_EVENTS = 4


def build_app(settings: Settings, *, llm: LLM | None = None, embedder: Embedder | None = None,
              agent_config: AgentConfig | None = None) -> gr.Blocks:
    """The app; the model, embedder and Chroma client are built once and shared, memory is per session."""
    sessions = Sessions(
        settings, llm=llm or wiring.build_llm(settings), embedder=embedder or wiring.build_embedder(settings),
        client=wiring.build_vector_client(settings), config=agent_config,
    )
    # Session collections on a persistent or remote Chroma would otherwise outlive the process.
    atexit.register(sessions.release_all)
    status = wiring.describe(settings)
    if llm is not None:  # a model handed in (tests, demos) is what answers: the status line says so
        status.update(backend="injected", model=llm.name)
    if embedder is not None:
        status["embedder"] = embedder.name
    weak_model = llm is None and settings.llm == "embedded" and not settings.gguf

    with gr.Blocks(title="Dreaming agent", analytics_enabled=False, fill_width=True) as demo:
        page = _layout(render.status_html(status, weak_model=weak_model))
        _connect(demo, page, sessions)
    demo.queue(default_concurrency_limit=CONCURRENT_EVENTS)
    return demo


def _html(elem_id: str | None = None, label: str | None = None, value: str = "") -> gr.HTML:
    # Labels name the outputs in the API docs; no click handler, the panels are read-only.
    return gr.HTML(value, elem_id=elem_id, label=label, js_on_load=None)


def _layout(status: str) -> SimpleNamespace:
    """Chat, mode and Dream on the left; memory, Dream diff, window and history in tabs on the right."""
    _html(value=render.STYLE + "<h2 style='margin:0'>🌙 Dreaming agent</h2>")
    _html("status", value=status)
    page = SimpleNamespace(timer=gr.Timer(LEARNING_POLL_S, active=False))
    with gr.Row():
        with gr.Column(scale=3):
            page.mode = gr.Radio([("LightMem", "lightmem"), ("RAG", "rag"), ("Compare", "compare")],
                                 value="lightmem", label="Mode", elem_id="mode")
            page.chat = gr.Chatbot(label="Chat", height=340, elem_id="chat", feedback_options=None)
            with gr.Row():
                page.message = gr.Textbox(label="Message", show_label=False, scale=5, elem_id="message",
                                          placeholder="Tell me about yourself, or ask something…")
                page.send = gr.Button("Send", variant="primary", scale=1, elem_id="send")
            with gr.Row():
                page.dream = gr.Button("🌙 Dream", elem_id="dream-button")
                page.undo = gr.Button("Undo last Dream", elem_id="undo-button")
            page.turn = _html("turn", "Turn")  # latency, budget meter and trace; two columns in Compare
            page.writer = _html("writer", "Writer")
        with gr.Column(scale=2):
            with gr.Tabs(selected="memory") as page.tabs:
                with gr.Tab("Memory", id="memory"):
                    gr.Markdown("#### Memory about you (long-term)")
                    page.facts = _html("facts", "Memory about you")
                    gr.Markdown("#### Short-term (MTM)")
                    page.mid_term = _html("mid-term", "Short-term memory")
                    with gr.Accordion("Add, edit or delete an entry", open=False):
                        page.memory_id = gr.Number(label="Entry id (for edit and delete)", precision=0)
                        page.memory_text = gr.Textbox(label="Text (for add and edit)")
                        with gr.Row():
                            page.add_memory = gr.Button("Add", size="sm")
                            page.edit_memory = gr.Button("Save edit", size="sm")
                            page.delete_memory = gr.Button("Delete", size="sm", variant="stop")
                        page.memory_notice = _html("memory-notice", "Memory notice")
                with gr.Tab("Dream", id="dream"):
                    page.diff = _html("diff", "Dream diff", '<p class="da-empty">Press 🌙 Dream to consolidate memory.</p>')
                    # The diff already lists refusals; this repeats them one per line, the model's reason apart.
                    with gr.Accordion("Refused proposals: the model's reason, the validator's verdict", open=False):
                        page.refused = _html("refused", "Refused proposals")
                with gr.Tab("Window", id="window"):
                    page.window = _html("window", "Conversation window")
                with gr.Tab("History", id="history"):
                    page.history = _html("history", "Chat history")
                    with gr.Row():
                        page.message_id = gr.Number(label="Message id", precision=0)
                        page.delete_message = gr.Button("Delete message", variant="stop")
                    page.history_notice = _html("history-notice", "History notice")
    return page


def _connect(demo: gr.Blocks, page: SimpleNamespace, sessions: Sessions) -> None:
    """One named endpoint per action; every one refreshes the memory panels it may have changed."""
    panels = [page.facts, page.mid_term, page.window, page.history, page.writer, page.timer]

    def agent(request: gr.Request):
        return sessions.agent(request.session_hash)

    def shown(view: handlers.Panels) -> list:
        # The timer polls only while the Writer is at work.
        return [view.facts, view.mid_term, view.window, view.history, view.writer, gr.Timer(active=view.learning)]

    def open_session(request: gr.Request):
        return [render.chat_messages(agent(request).history()), *shown(handlers.panels(agent(request)))]

    def chat(text: str, mode: str, request: gr.Request):
        view = handlers.chat(agent(request), text, mode)
        return [view.chat, view.textbox, view.turn, *shown(view.panels)]

    def learning(request: gr.Request):
        return shown(handlers.panels(agent(request)))

    def wait_for_learning(timeout_s: float, request: gr.Request) -> dict:
        """Wait until the background Writer is done (at most timeout_s), then return every memory panel."""
        return handlers.wait_for_learning(agent(request), timeout_s)._asdict()

    def dream(request: gr.Request):
        view = handlers.dream(agent(request))
        return [view.diff, view.refused, gr.Tabs(selected="dream"), *shown(view.panels)]

    def undo_dream(request: gr.Request):
        view = handlers.undo_last_dream(agent(request))
        return [view.diff, view.refused, gr.Tabs(selected="dream"), *shown(view.panels)]

    def action(view: handlers.ActionView) -> list:
        return [view.notice, view.chat, *shown(view.panels)]

    def add_memory(text: str, request: gr.Request):
        return action(handlers.add_memory(agent(request), text))

    def edit_memory(memory_id: float | None, text: str, request: gr.Request):
        return action(handlers.edit_memory(agent(request), memory_id, text))

    def delete_memory(memory_id: float | None, request: gr.Request):
        return action(handlers.delete_memory(agent(request), memory_id))

    def delete_message(message_id: float | None, request: gr.Request):
        return action(handlers.delete_message(agent(request), message_id))

    def end_session(request: gr.Request):
        sessions.release(request.session_hash)

    demo.load(open_session, outputs=[page.chat, *panels], api_name="open_session")
    gr.on([page.send.click, page.message.submit], chat, inputs=[page.message, page.mode],
          outputs=[page.chat, page.message, page.turn, *panels], api_name="chat")
    page.timer.tick(learning, outputs=panels, api_name="learning", show_progress="hidden")
    gr.api(wait_for_learning, api_name="wait_for_learning")
    page.dream.click(dream, outputs=[page.diff, page.refused, page.tabs, *panels], api_name="dream")
    page.undo.click(undo_dream, outputs=[page.diff, page.refused, page.tabs, *panels], api_name="undo_dream")
    memory_outputs = [page.memory_notice, page.chat, *panels]
    page.add_memory.click(add_memory, inputs=page.memory_text, outputs=memory_outputs, api_name="add_memory")
    page.edit_memory.click(edit_memory, inputs=[page.memory_id, page.memory_text], outputs=memory_outputs,
                           api_name="edit_memory")
    page.delete_memory.click(delete_memory, inputs=page.memory_id, outputs=memory_outputs, api_name="delete_memory")
    page.delete_message.click(delete_message, inputs=page.message_id, outputs=[page.history_notice, page.chat, *panels],
                              api_name="delete_message")
    demo.unload(end_session)  # the tab closed: its memory goes at once, not when Gradio's state expires
