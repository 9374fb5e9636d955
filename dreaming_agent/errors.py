"""Every failure a person or a caller can meet, one class per kind, each message saying how to fix it."""
from __future__ import annotations


class DreamingAgentError(Exception):
    """Root of all errors raised by this package."""


class ConfigError(DreamingAgentError):
    """A setting is wrong or a file it names is missing."""


class ModelFileMissing(ConfigError):
    def __init__(self, path: str, hint: str):
        super().__init__(f"GGUF model file not found: {path}. {hint}")
        self.path = path


class StoreNotWritable(ConfigError):
    def __init__(self, path: str, reason: str):
        super().__init__(
            f"Cannot open the database at {path}: {reason}. "
            "Choose a writable path with DREAMING_DB or --db, or leave it unset for a temporary one."
        )
        self.path = path


class MigrationFailed(ConfigError):
    def __init__(self, migration: str, reason: str):
        super().__init__(
            f"Cannot upgrade the database schema ({migration}): {reason}. Nothing was changed; "
            "keep a copy of the file and report this, or start with a new database (DREAMING_DB or --db)."
        )
        self.migration = migration


class BackendUnavailable(DreamingAgentError):
    """A model server or vector server cannot be reached."""

    def __init__(self, message: str, *, backend: str):
        super().__init__(message)
        self.backend = backend


class ModelNotPulled(BackendUnavailable):
    def __init__(self, model: str, host: str):
        super().__init__(
            f"Ollama at {host} does not have the model '{model}'. Run: ollama pull {model}",
            backend="ollama",
        )
        self.model = model


class ModelNotServed(BackendUnavailable):
    def __init__(self, model: str, base_url: str, reason: str):
        super().__init__(
            f"The server at {base_url} does not serve the model '{model}' ({reason}). Set DREAMING_OPENAI_MODEL "
            f"(or --openai-model) to a model listed at {base_url.rstrip('/')}/models, and check that "
            "OPENAI_BASE_URL ends in /v1.",
            backend="openai",
        )
        self.model = model


class CredentialsRefused(BackendUnavailable):
    def __init__(self, base_url: str, reason: str):
        super().__init__(
            f"The server at {base_url} refused the API key ({reason}). Set OPENAI_API_KEY (or --openai-api-key) "
            "to a key it accepts; local servers started without a key accept any.",
            backend="openai",
        )


class VectorServerLost(BackendUnavailable):
    def __init__(self, where: str, reason: str):
        super().__init__(
            f"Lost the Chroma server at {where} ({reason}). Start it again (`chroma run --path DIR --host HOST "
            "--port PORT`), or unset CHROMA_HOST for the in-process index. Nothing is lost: SQLite keeps every "
            "message and memory, and the index is repaired from it when the agent next starts.",
            backend="chroma",
        )
        self.where = where


class ModelTimeout(DreamingAgentError):
    def __init__(self, seconds: float, backend: str):
        super().__init__(
            f"The {backend} model did not answer within {seconds:g} s. Allow it longer with DREAMING_LLM_TIMEOUT "
            "(or --llm-timeout-s), or choose a smaller model."
        )
        self.seconds = seconds
        self.backend = backend


class ModelOutputError(DreamingAgentError):
    """The model answered, but not in the shape that was asked for; keeps the raw output."""

    def __init__(self, message: str, *, raw: str):
        super().__init__(message)
        self.raw = raw


class InvalidInput(DreamingAgentError):
    """Input from the person that cannot be used as it is (empty message, unknown id)."""


class NotFound(InvalidInput):
    def __init__(self, kind: str, ident: object):
        super().__init__(f"No {kind} with id {ident!r} (it may have been deleted).")
        self.kind = kind
        self.ident = ident


class DuplicateMemory(InvalidInput):
    def __init__(self, existing_id: int):
        super().__init__(f"Entry #{existing_id} already says that: edit it instead of adding it again.")
        self.existing_id = existing_id


class SecretRefused(InvalidInput):
    def __init__(self, why: str):
        super().__init__(f"Not stored: this looks like {why}, and credentials never become memory. "
                         "Keep it in a password manager instead.")
        self.why = why


class MemoryFileInvalid(InvalidInput):
    def __init__(self, reason: str):
        super().__init__(
            f"This is not a memory file that 'Download my memory' saved ({reason}). "
            "Choose the .json file it saved, unchanged."
        )
        self.reason = reason


class MemoryNotEmpty(InvalidInput):
    def __init__(self):
        super().__init__(
            "This tab already holds a conversation, and loading would mix two memories. "
            "Open the app in a new tab (or reload this one) and load the file there."
        )


class PromptError(DreamingAgentError):
    """A prompt file is missing or was rendered without one of its variables."""
