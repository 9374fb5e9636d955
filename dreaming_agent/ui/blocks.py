"""The Gradio page: layout, then events. Each event finds the visitor's own agent, then calls a handler."""
from __future__ import annotations

import atexit
from types import SimpleNamespace

import gradio as gr

from .. import wiring
from ..embed.base import Embedder
from ..llm.base import LLM
from ..llm.choose import Choice
from ..pipeline.agent import AgentConfig
from ..settings import Settings
from . import compare, handlers, render, scripts
from .status import status_html, status_words
from .sessions import Sessions

LEARNING_POLL_S = 1.0
# Visitors wait on the shared model anyway (llama.cpp takes one call at a time); a few events may run
# side by side so that one visitor's long answer does not hold up another's memory panels.
CONCURRENT_EVENTS = 4
FILE_CACHE_S = 600


def build_app(settings: Settings, *, llm: LLM | None = None, embedder: Embedder | None = None,
              agent_config: AgentConfig | None = None, model_choice: Choice | None = None) -> gr.Blocks:
    """The app; the model, embedder and Chroma client are built once and shared, memory is per session.

    `model_choice` (from llm.choose) names the model picked at start and why; its settings are `settings`."""
    sessions = Sessions(
        settings, llm=llm or wiring.build_llm(settings), embedder=embedder or wiring.build_embedder(settings),
        client=wiring.build_vector_client(settings), config=agent_config,
    )
    # Session collections on a persistent or remote Chroma would otherwise outlive the process.
    atexit.register(sessions.release_all)
    status, weak_model = status_info(settings, llm=llm, embedder=embedder, model_choice=model_choice)

    # Downloads and uploads pass through Gradio's file cache: it keeps none of them for long.
    with gr.Blocks(title="Dreaming agent", analytics_enabled=False, fill_width=True,
                   delete_cache=(FILE_CACHE_S, FILE_CACHE_S)) as demo:
        words = status_words(backend=status["backend"], model=status["model"], weak=weak_model)
        page = _layout(status_html(words, status, weak_model=weak_model))
        _connect(demo, page, sessions)
    demo.queue(default_concurrency_limit=CONCURRENT_EVENTS)
    return demo


def status_info(settings: Settings, *, llm: LLM | None = None, embedder: Embedder | None = None,
                model_choice: Choice | None = None) -> tuple[dict[str, str], bool]:
    """What the status line names (the backend and model that really answer, and why that model) and whether
    it is the tiny fallback, for which the page says how to get good answers."""
    status = wiring.describe(settings)
    weak_model = llm is None and settings.llm == "embedded" and not settings.gguf
    if llm is not None:  # a model handed in (tests, demos) is what answers: the status line says so
        status.update(backend="injected", model=llm.name)
    elif model_choice is not None:
        status = {"backend": status.pop("backend"), "model": model_choice.model, "why": model_choice.reason,
                  **{k: v for k, v in status.items() if k != "model"}}
        weak_model = model_choice.weak
    if embedder is not None:
        status["embedder"] = embedder.name
    return status, weak_model


def _html(elem_id: str | None = None, label: str | None = None, value: str = "", js: str | None = None,
          **options) -> gr.HTML:
    # Labels name the outputs in the API docs; the panels are read-only unless `js` wires their buttons.
    return gr.HTML(value, elem_id=elem_id, label=label, js_on_load=js, **options)


def _layout(status: str) -> SimpleNamespace:
    """Chat, mode and Dream on the left; memory, Dream diff, window and history in tabs on the right."""
    _html(value=render.STYLE + compare.STYLE + "<h2 style='margin:0'>🌙 Dreaming agent</h2>", js=scripts.CLEAR_NOTICES)
    _html("status", value=status)
    page = SimpleNamespace(timer=gr.Timer(LEARNING_POLL_S, active=False))
    with gr.Row():
        with gr.Column(scale=3):
            page.mode = gr.Radio([("LightMem", "lightmem"), ("RAG", "rag"), ("Compare", "compare")],
                                 value="lightmem", label="Mode", elem_id="mode")
            # Plain text only: no markdown, no LaTeX, so nothing typed can become an image, a link or markup.
            # No "share" button either: it would post the conversation to a website.
            page.chat = gr.Chatbot(label="Chat", height=340, elem_id="chat", feedback_options=None,
                                   render_markdown=False, latex_delimiters=[], buttons=["copy", "copy_all"])
            # Compare: the two answers side by side, turn by turn, in place of the chat.
            page.compare = _html("compare", "Compare", compare.columns_html([]), visible=False)
            page.clear_confirmed = gr.Checkbox(visible=False)  # set by the trash icon's confirmation
            with gr.Row():
                page.message = gr.Textbox(label="Message", show_label=False, scale=5, elem_id="message",
                                          placeholder="Tell me about yourself, or ask something…")
                page.send = gr.Button("Send", variant="primary", scale=1, elem_id="send")
            page.unsent = gr.Textbox(visible="hidden", elem_id="unsent")  # a message to offer again after a failure
            with gr.Row():
                page.dream = gr.Button("🌙 Dream", elem_id="dream-button")
                page.undo = gr.Button("Undo last Dream", elem_id="undo-button")
            with gr.Row():
                page.export = gr.Button("💾 Download my memory", elem_id="export-memory", size="sm")
                page.load = gr.UploadButton("📂 Load memory", elem_id="load-memory", size="sm", type="binary",
                                            file_types=[".json"])
            page.memory_file = gr.File(label="Your memory file", elem_id="memory-file", interactive=False,
                                       height=60)  # hidden by the page's CSS until it holds a file
            page.notice = _html("notice", "Notice")
            page.turn = _html("turn", "Turn")  # latency, budget meter and trace; two columns in Compare
            page.writer = _html("writer", "Writer")
            page.kept = _html("memory-state", "Memory kept", js=scripts.WARN_BEFORE_UNLOAD, visible="hidden")
        with gr.Column(scale=2):
            with gr.Tabs(selected="memory") as page.tabs:
                with gr.Tab("Memory", id="memory"):
                    gr.Markdown("#### Memory about you (long-term)")
                    page.facts = _html("facts", "Memory about you", js=scripts.DELETE_BUTTONS)
                    gr.Markdown("#### Short-term (MTM)")
                    page.mid_term = _html("mid-term", "Short-term memory", js=scripts.DELETE_BUTTONS)
                    with gr.Accordion("Add, edit or delete an entry", open=False):
                        page.memory_id = gr.Number(label="Entry id (for edit and delete)", step=1,
                                                   elem_id="memory-id")
                        page.memory_text = gr.Textbox(label="Text (for add and edit)", elem_id="memory-text")
                        with gr.Row():
                            page.add_memory = gr.Button("Add", size="sm", elem_id="add-memory")
                            page.edit_memory = gr.Button("Save edit", size="sm", elem_id="edit-memory")
                            page.delete_memory = gr.Button("Delete", size="sm", variant="stop", elem_id="delete-memory")
                    page.memory_notice = _html("memory-notice", "Memory notice")
                with gr.Tab("Dream", id="dream"):
                    page.diff = _html("diff", "Dream diff", '<p class="da-empty">Press 🌙 Dream to consolidate memory.</p>')
                    # The diff already lists refusals; this repeats them one per line, the model's reason apart.
                    with gr.Accordion("Refused proposals: the model's reason, the validator's verdict", open=False):
                        page.refused = _html("refused", "Refused proposals")
                with gr.Tab("Window", id="window"):
                    page.window = _html("window", "Conversation window")
                with gr.Tab("History", id="history"):
                    page.history = _html("history", "Chat history", js=scripts.DELETE_BUTTONS)
                    with gr.Row():
                        page.message_id = gr.Number(label="Message id", step=1, elem_id="message-id")
                        page.delete_message = gr.Button("Delete message", variant="stop", elem_id="delete-message")
                    page.history_notice = _html("history-notice", "History notice")
    return page


def _connect(demo: gr.Blocks, page: SimpleNamespace, sessions: Sessions) -> None:
    """One named endpoint per action; every one refreshes the memory panels it may have changed."""
    panels = [page.facts, page.mid_term, page.window, page.history, page.writer, page.kept, page.timer]
    traces = [page.turn, page.diff, page.refused]

    def agent(request: gr.Request):
        return sessions.agent(request.session_hash)

    def shown(view: handlers.Panels, request: gr.Request, ticket: int | None = None) -> list:
        """The memory panels, unless an update read after this one (`ticket`) was sent first: then nothing, so a late
        stale read never hides what is stored. Without a ticket the view was just read, so it is the newest."""
        clock = sessions.live(request.session_hash).panels
        if not clock.send(clock.read() if ticket is None else ticket):
            return [gr.skip()] * len(panels)
        # The timer polls only while the Writer is at work.
        return [view.facts, view.mid_term, view.window, view.history, view.writer, view.kept,
                gr.Timer(active=view.learning)]

    def open_session(request: gr.Request):
        return [render.chat_messages(agent(request).memory.history()), *shown(handlers.panels(agent(request)), request)]

    def chat(text: str, mode: str, request: gr.Request):
        """The message at once, then the reply as it streams; trace and memory panels once it is stored."""
        for view in handlers.chat(agent(request), sessions.live(request.session_hash), text, mode):
            streaming = view.panels is None
            yield [view.chat, view.unsent, gr.skip() if streaming else view.turn,
                   gr.skip() if view.compare is None else view.compare,
                   *([gr.skip()] * len(panels) if streaming else shown(view.panels, request))]

    def show_mode(mode: str, request: gr.Request):
        """Compare shows its two columns in place of the chat; the other modes the chat."""
        columns = compare.columns_html(sessions.live(request.session_hash).compared_turns(agent(request).memory.history()))
        return gr.Chatbot(visible=mode != "compare"), gr.HTML(columns, visible=mode == "compare")

    def learning(request: gr.Request):
        ticket = sessions.live(request.session_hash).panels.read()  # before reading: a chat may store meanwhile
        return shown(handlers.panels(agent(request)), request, ticket)

    def wait_for_learning(timeout_s: float, request: gr.Request) -> dict:
        """Wait until the background Writer is done (at most timeout_s), then return every memory panel."""
        return handlers.wait_for_learning(agent(request), timeout_s)._asdict()

    def dream(request: gr.Request):
        """Groups reviewed of all the Dream will review, on the Dream tab, then its diff and the memory panels."""
        for view in handlers.dream(agent(request)):
            running = view.panels is None
            yield [view.diff, view.refused, gr.Tabs(selected="dream"),
                   *([gr.skip()] * len(panels) if running else shown(view.panels, request))]

    def undo_dream(request: gr.Request):
        view = handlers.undo_last_dream(agent(request))
        return [view.diff, view.refused, gr.Tabs(selected="dream"), *shown(view.panels, request)]

    def action(view: handlers.ActionView, request: gr.Request, *, with_traces: bool = True) -> list:
        """Notice, chat and panels; then the traces, which may quote what was just changed or deleted."""
        kept = [*view.traces] if view.traces else [gr.skip()] * len(traces)
        return [view.notice, view.chat, *shown(view.panels, request), *(kept if with_traces else ())]

    def add_memory(text: str, request: gr.Request):
        return action(handlers.add_memory(agent(request), text), request, with_traces=False)

    def edit_memory(memory_id: float | None, text: str, request: gr.Request):
        return action(handlers.edit_memory(agent(request), memory_id, text), request)

    def delete_memory(memory_id: float | None, request: gr.Request):
        return action(handlers.delete_memory(agent(request), memory_id), request)

    def delete_message(message_id: float | None, request: gr.Request):
        return action(handlers.delete_message(agent(request), message_id), request)

    def delete_clicked(event: gr.EventData, request: gr.Request):
        """A trash button beside an entry or a message (the page asked for confirmation first)."""
        view = handlers.delete_clicked(agent(request), getattr(event, "kind", None), getattr(event, "id", None))
        return action(view, request)

    def delete_conversation(confirmed: bool, request: gr.Request):
        return action(handlers.delete_conversation(agent(request), bool(confirmed)), request)

    def export_memory(request: gr.Request):
        """'Download my memory': a JSON file of messages, entries with sources and dates, and the Dream history."""
        return handlers.export_memory(agent(request), sessions.folder(request.session_hash))

    def load_memory(raw: bytes | None, request: gr.Request):
        return action(handlers.load_memory(agent(request), raw), request)

    def end_session(request: gr.Request):
        sessions.release(request.session_hash)

    demo.load(open_session, outputs=[page.chat, *panels], api_name="open_session")
    # The box empties in the browser as the message goes, so the next can be typed while this one is answered;
    # every send is queued and answered in order ("multiple": Gradio's default would drop one sent while busy).
    answered = gr.on([page.send.click, page.message.submit], chat, inputs=[page.message, page.mode],
                     outputs=[page.chat, page.unsent, page.turn, page.compare, *panels], js=scripts.SEND_AND_CLEAR,
                     api_name="chat", trigger_mode="multiple", show_progress="hidden")
    answered.then(None, inputs=[page.message, page.unsent], outputs=page.message, js=scripts.OFFER_UNSENT)
    page.mode.change(show_mode, inputs=page.mode, outputs=[page.chat, page.compare], api_visibility="private",
                     show_progress="hidden")
    page.timer.tick(learning, outputs=panels, api_name="learning", show_progress="hidden")
    gr.api(wait_for_learning, api_name="wait_for_learning")
    page.dream.click(dream, outputs=[page.diff, page.refused, page.tabs, *panels], api_name="dream",
                     show_progress="hidden")  # its own status line counts groups; Gradio's guess of the time does not
    page.undo.click(undo_dream, outputs=[page.diff, page.refused, page.tabs, *panels], api_name="undo_dream")
    page.add_memory.click(add_memory, inputs=page.memory_text, outputs=[page.memory_notice, page.chat, *panels],
                          api_name="add_memory")
    forgets = [page.memory_notice, page.chat, *panels, *traces]
    page.edit_memory.click(edit_memory, inputs=[page.memory_id, page.memory_text], outputs=forgets,
                           api_name="edit_memory")
    page.delete_memory.click(delete_memory, inputs=page.memory_id, outputs=forgets, api_name="delete_memory")
    page.delete_message.click(delete_message, inputs=page.message_id,
                              outputs=[page.history_notice, page.chat, *panels, *traces], api_name="delete_message")
    for panel, notice in ((page.facts, page.memory_notice), (page.mid_term, page.memory_notice),
                          (page.history, page.history_notice)):
        panel.click(delete_clicked, outputs=[notice, page.chat, *panels, *traces], api_visibility="private")
    page.chat.clear(delete_conversation, inputs=page.clear_confirmed,
                    outputs=[page.notice, page.chat, *panels, *traces], js=scripts.CONFIRM_CLEAR,
                    api_name="delete_conversation")
    page.export.click(export_memory, outputs=[page.memory_file, page.notice], api_name="export_memory").then(
        None, js=scripts.CLICK_DOWNLOAD)
    page.load.upload(load_memory, inputs=page.load, outputs=[page.notice, page.chat, *panels, *traces],
                     api_name="load_memory")
    demo.unload(end_session)  # the tab closed: its memory goes at once, not when Gradio's state expires
