"""Errors of the engine and its LLM client, each with a message a person understands.

    Error
    └── LLMError                 the model server could not give an answer
        ├── ServerUnreachable    nothing answers at the base URL (connection refused, DNS, connect timeout)
        ├── ModelNotFound        the server does not have the model; lists the models it has
        ├── AuthenticationFailed 401/403: the API key is missing or wrong
        ├── RateLimited          429
        ├── ServerFailed         5xx, or another HTTP error, with the server's own message
        │   ├── AddressNotFound  404: nothing at the Server URL
        │   ├── ModelsUnlisted   404 at /models, but the server takes questions (or asks for a model named)
        │   ├── ContextTooLong   the request is longer than the model's context window
        │   └── ModelLoading     503 while the server loads its model (llama.cpp's): asked again soon
        ├── FirstTokenTimeout    the model did not start answering in time
        ├── StreamInterrupted    the stream broke off before the answer was finished
        ├── ReplyCutShort        the model reached its longest reply (finish_reason "length")
        ├── ReplyFiltered        the server's content filter ended the reply (finish_reason "content_filter")
        └── BadResponse          the server answered something that is not an OpenAI-compatible reply

httpx's exceptions are translated once, in the LLM client, with ``raise … from exc``.
"""

from __future__ import annotations

from ..halves import mended
from ..hidden_passwords import hide_passwords


class Error(Exception):
    """Base of the engine's errors."""


class LLMError(Error):
    """The model server could not give an answer. ``str(exc)`` is the message to show."""

    kind = "llm"

    def __init__(self, message: str) -> None:
        # the base URL's password, which messages name the server by; half a character a server's words held
        message = mended(hide_passwords(message))
        super().__init__(message)
        self.message = message


class ServerUnreachable(LLMError):
    kind = "server_unreachable"


# How a ModelNotFound's message names the model ("The server has no model called “llama3”…"): the window
# offers the server's models beside it, also when a chat is reopened (only the message is stored).
NO_SUCH_MODEL = "has no model called “"
# What it says to do: the command line's words; the window, with a "Choose a model…" button beside the
# message, names the button instead (sent to Settings, the words read wrong beside it).
CHOOSE_ANOTHER = "Choose one in Settings (or pass --model)."


class ModelNotFound(LLMError):
    kind = "model_not_found"

    def __init__(self, message: str, available: list[str] | None = None) -> None:
        super().__init__(message)
        self.available = available or []


class AuthenticationFailed(LLMError):
    kind = "auth"


class RateLimited(LLMError):
    kind = "rate_limited"


class ServerFailed(LLMError):
    kind = "server_error"


class AddressNotFound(ServerFailed):
    """The server found nothing at the address asked (404): the Server URL is wrong."""


class ModelsUnlisted(ServerFailed):
    """The server has no list of models (404 at /models) but takes questions: a server of one model (a
    llama.cpp or koboldcpp build, a proxy), asked with no model named, answers with the one it serves;
    ``needs_model``: this one refused a question with none named (an old Ollama: "model is required")."""

    def __init__(self, message: str, needs_model: bool = False) -> None:
        super().__init__(message)
        self.needs_model = needs_model

    def words(self, chat_model: str) -> str:
        """What it means for questions, with the Chat model ``chat_model`` set ("" for none)."""
        if chat_model:
            return f"{self} Questions name the Chat model, “{chat_model}”."
        if self.needs_model:
            return (f"{self} It takes no question without a model named: set the Chat model in Settings (the "
                    "name of a model the server has) or pass --model.")
        return f"{self} With no Chat model set, questions go to the model it serves."


class ContextTooLong(ServerFailed):
    """The server refused a request longer than the model's context; ``window`` is its size in tokens when
    the refusal said it (None when it did not)."""

    kind = "context_too_long"

    def __init__(self, message: str, window: int | None = None) -> None:
        super().__init__(message)
        self.window = window


class ModelLoading(ServerFailed):
    """The server is still loading its model (llama.cpp's 503 "Loading model"): nothing is wrong that waiting
    does not mend. Told apart by its type, not by its words, which hold the server's own."""


class FirstTokenTimeout(LLMError):
    kind = "timeout"


class StreamInterrupted(LLMError):
    kind = "stream_interrupted"


class ReplyCutShort(LLMError):
    """The server ended the reply at its length limit: the answer stops mid-way, though nothing failed."""

    kind = "length"


class ReplyFiltered(LLMError):
    """The server's content filter ended the reply: it looked whole (or empty, "the model sent nothing")."""

    kind = "content_filter"


class BadResponse(LLMError):
    kind = "bad_response"
