"""The Gradio page: layout and events. Each event resolves the visitor's own agent, then calls a handler."""
from __future__ import annotations

import atexit

import gradio as gr

from .. import wiring
from ..embed.base import Embedder
from ..llm.base import LLM
from ..pipeline.agent import AgentConfig
from ..settings import Settings
from . import handlers, render
from .sessions import Sessions

LEARNING_POLL_S = 1.0


def build_app(settings: Settings, *, llm: LLM | None = None, embedder: Embedder | None = None,
              agent_config: AgentConfig | None = None) -> gr.Blocks:
    """The app; the model, embedder and Chroma client are built once and shared, memory is per session."""
    sessions = Sessions(
        settings, llm=llm or wiring.build_llm(settings), embedder=embedder or wiring.build_embedder(settings),
        client=wiring.build_vector_client(settings), config=agent_config,
    )
    # Session collections on a persistent or remote Chroma would otherwise outlive the process.
    atexit.register(sessions.release_all)
    weak_model = settings.llm == "embedded" and not settings.gguf

    with gr.Blocks(title="Dreaming agent", analytics_enabled=False, fill_width=True) as demo:
        gr.HTML(render.STYLE + "<h2 style='margin:0'>🌙 Dreaming agent</h2>", js_on_load=None)
        gr.HTML(render.status_html(wiring.describe(settings), weak_model=weak_model), elem_id="status", js_on_load=None)
        learning_timer = gr.Timer(LEARNING_POLL_S, active=False)
        with gr.Row():
            with gr.Column(scale=3):
                mode = gr.Radio([("LightMem", "lightmem"), ("RAG", "rag"), ("Compare", "compare")],
                                value="lightmem", label="Mode", elem_id="mode")
                chatbot = gr.Chatbot(label="Chat", height=340, elem_id="chat", feedback_options=None)
                with gr.Row():
                    message = gr.Textbox(label="Message", placeholder="Tell me about yourself, or ask something…", show_label=False,
                                         scale=5, elem_id="message")
                    send = gr.Button("Send", variant="primary", scale=1, elem_id="send")
                with gr.Row():
                    dream = gr.Button("🌙 Dream", elem_id="dream")
                    undo = gr.Button("Undo last Dream", elem_id="undo")
                turn = gr.HTML(elem_id="turn", label="Turn", js_on_load=None)
                writer = gr.HTML(elem_id="writer", label="Writer", js_on_load=None)
            with gr.Column(scale=2):
                with gr.Tabs(selected="memory") as tabs:
                    with gr.Tab("Memory", id="memory"):
                        gr.Markdown("#### Memory about you (long-term)")
                        facts = gr.HTML(elem_id="facts", label="Memory about you", js_on_load=None)
                        gr.Markdown("#### Short-term (MTM)")
                        mid_term = gr.HTML(elem_id="mid-term", label="Short-term memory", js_on_load=None)
                        with gr.Accordion("Add, edit or delete an entry", open=False):
                            memory_id = gr.Number(label="Entry id (for edit and delete)", precision=0, elem_id="memory-id")
                            memory_text = gr.Textbox(label="Text (for add and edit)", elem_id="memory-text")
                            with gr.Row():
                                add_memory = gr.Button("Add", size="sm")
                                edit_memory = gr.Button("Save edit", size="sm")
                                delete_memory = gr.Button("Delete", size="sm", variant="stop")
                            memory_notice = gr.HTML(label="Memory notice", js_on_load=None)
                    with gr.Tab("Dream", id="dream"):
                        diff = gr.HTML('<p class="da-empty">Press 🌙 Dream to consolidate memory.</p>',
                                       elem_id="diff", label="Dream diff", js_on_load=None)
                        gr.Markdown("#### Refused proposals")
                        refused = gr.HTML(elem_id="refused", label="Refused proposals", js_on_load=None)
                    with gr.Tab("Window", id="window"):
                        window = gr.HTML(elem_id="window", label="Conversation window", js_on_load=None)
                    with gr.Tab("History", id="history"):
                        history = gr.HTML(elem_id="history", label="Chat history", js_on_load=None)
                        with gr.Row():
                            message_id = gr.Number(label="Message id", precision=0, elem_id="message-id")
                            delete_message = gr.Button("Delete message", variant="stop")
                        history_notice = gr.HTML(label="History notice", js_on_load=None)

        shown = [facts, mid_term, window, history, writer, learning_timer]

        def show(view: handlers.Panels) -> list:
            return [*view[:-1], gr.Timer(active=view.learning)]

        def agent(request: gr.Request):
            return sessions.agent(request.session_hash)

        def on_open(request: gr.Request):
            return [render.chat_messages(agent(request).history()), *show(handlers.panels(agent(request)))]

        def on_chat(text: str, chosen_mode: str, request: gr.Request):
            view = handlers.chat(agent(request), text, chosen_mode)
            return [view.chat, view.textbox, view.turn, *show(view.panels)]

        def on_learning_tick(request: gr.Request):
            return show(handlers.panels(agent(request)))

        def wait_for_learning(timeout_s: float, request: gr.Request) -> dict:
            """Wait until the background Writer is done (at most timeout_s), then return every memory panel."""
            return handlers.wait_for_learning(agent(request), timeout_s)._asdict()

        def on_dream(request: gr.Request):
            view = handlers.dream(agent(request))
            return [view.diff, view.refused, gr.Tabs(selected="dream"), *show(view.panels)]

        def on_undo(request: gr.Request):
            view = handlers.undo_last_dream(agent(request))
            return [view.diff, view.refused, gr.Tabs(selected="dream"), *show(view.panels)]

        def on_add_memory(text: str, request: gr.Request):
            return _action(handlers.add_memory(agent(request), text))

        def on_edit_memory(ident: float | None, text: str, request: gr.Request):
            return _action(handlers.edit_memory(agent(request), ident, text))

        def on_delete_memory(ident: float | None, request: gr.Request):
            return _action(handlers.delete_memory(agent(request), ident))

        def on_delete_message(ident: float | None, request: gr.Request):
            return _action(handlers.delete_message(agent(request), ident))

        def _action(view: handlers.ActionView) -> list:
            return [view.notice, view.chat, *show(view.panels)]

        def on_close(request: gr.Request):
            sessions.release(request.session_hash)

        demo.load(on_open, outputs=[chatbot, *shown], api_name="open_session")
        gr.on([send.click, message.submit], on_chat, inputs=[message, mode], outputs=[chatbot, message, turn, *shown],
              api_name="chat")
        learning_timer.tick(on_learning_tick, outputs=shown, api_name="learning", show_progress="hidden")
        gr.api(wait_for_learning, api_name="wait_for_learning")
        dream.click(on_dream, outputs=[diff, refused, tabs, *shown], api_name="dream")
        undo.click(on_undo, outputs=[diff, refused, tabs, *shown], api_name="undo_dream")
        add_memory.click(on_add_memory, inputs=memory_text, outputs=[memory_notice, chatbot, *shown], api_name="add_memory")
        edit_memory.click(on_edit_memory, inputs=[memory_id, memory_text], outputs=[memory_notice, chatbot, *shown],
                          api_name="edit_memory")
        delete_memory.click(on_delete_memory, inputs=memory_id, outputs=[memory_notice, chatbot, *shown],
                            api_name="delete_memory")
        delete_message.click(on_delete_message, inputs=message_id, outputs=[history_notice, chatbot, *shown],
                             api_name="delete_message")
        demo.unload(on_close)
    demo.queue(default_concurrency_limit=4)
    return demo
