"""The settings dialog's Test connection: the button beside the model box, its outcome, the models listed."""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QBoxLayout, QComboBox, QPushButton, QSizePolicy, QWidget

from ..engine.errors import AuthenticationFailed, BadResponse, ModelNotFound, ModelsUnlisted, RateLimited, ServerFailed
from ..engine.llm import has_model
from ..firstrun import is_chat_model
from ..hidden_passwords import hide_passwords
from ..sentences import after_colon
from ..settings import SettingsError
from ..tool_words import settings_words
from .busy_buttons import set_working
from .markdown_render import inline_code_html
from .status import answers_any_name


ListModels = Callable[[str, str], Awaitable[list[str]]]
_ANSWERED = (AuthenticationFailed, BadResponse, ModelNotFound, RateLimited, ServerFailed)  # the server replied


class ModelRow(QWidget):
    """The model box with Test connection beside it, or under it when the two do not fit side by side: with
    an 18 pt font on a 1024×600 screen the button was squeezed to "nnection & load r", cut on both sides."""

    def __init__(self, field: QWidget, button: QPushButton, parent: QWidget) -> None:
        super().__init__(parent)
        self._field, self._button = field, button
        self._row = QBoxLayout(QBoxLayout.Direction.LeftToRight, self)
        self._row.setContentsMargins(0, 0, 0, 0)
        self._row.addWidget(field, 1)
        self._row.addWidget(button)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)  # no gaps when stacked

    def _side_by_side(self) -> int:
        return self._field.minimumSizeHint().width() + self._row.spacing() + self._button.sizeHint().width()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        # as narrow as the wider of the two: the button goes under the box rather than being cut
        hint = super().minimumSizeHint()
        return QSize(max(self._field.minimumSizeHint().width(), self._button.sizeHint().width()), hint.height())

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        wanted = (QBoxLayout.Direction.LeftToRight if event.size().width() >= self._side_by_side()
                  else QBoxLayout.Direction.TopToBottom)
        if self._row.direction() != wanted:
            self._row.setDirection(wanted)
            self._row.setAlignment(self._button, Qt.AlignmentFlag(0) if wanted == QBoxLayout.Direction.LeftToRight
                                   else Qt.AlignmentFlag.AlignLeft)
            self.updateGeometry()
        super().resizeEvent(event)


class ConnectionTestMixin:
    """SettingsDialog's Test connection and the model lists it fills (mixed into it, see settings_dialog.py)."""

    def test_connection(self) -> asyncio.Task[None] | None:
        if self._list_models is None:
            self.test_result.show()
            self._say_test("Model listing is not available in this build.", failed=True)
            return None
        url_field = self._fields["base_url"]
        try:
            url = url_field.value()
        except SettingsError:
            # Said under Server URL, where it is to be corrected: it was said under the model box as well,
            # the same words twice. The focus goes there.
            url_field.validate()
            self.test_result.hide()
            self.test_result.clear()
            url_field.widget.setFocus(Qt.FocusReason.OtherFocusReason)
            return None
        self.test_result.show()
        key = str(self._fields["api_key"].raw())
        set_working(self.test_button, True)  # the focus stays with it, not the Embedding model box
        self._say_test(f"Connecting to {hide_passwords(url)}…")
        self._test_task = asyncio.ensure_future(self._test(url, key))
        return self._test_task

    def _forget_test(self) -> None:
        if self._test_task is None or self._test_task.done():  # a test under way fills the model list itself
            self.test_result.hide()
            self.test_result.clear()
        self._warn_model()

    def _other_server(self) -> None:
        """Another address: what the last one listed says nothing of its models."""
        self._listed = []
        self._warn_model()

    def _warn_model(self) -> None:
        """A Chat model typed that the server's list (fetched already) lacks is said under the field, as the
        status bar's "model missing" would say after Save: it was not, and every question then failed. Save
        is not held back: the server may be offline now, or still pulling the model."""
        name = self._fields["chat_model"].widget.currentText().strip()
        listed = getattr(self, "_listed", [])
        missing = (bool(name and listed) and not has_model(listed, name) and not answers_any_name(listed)
                   and self.test_result.isHidden())  # a test's own "has no model called …" says it there
        chat = [m for m in listed if is_chat_model(m)] or listed
        self.model_warning.setText(f"The server does not list a model called “{name}”; it has {_some(chat)}. "
                                   "Saved like this, questions fail until the server has it." if missing else "")
        self.model_warning.setVisible(missing)
        self._fit_timer.start()

    def _stop_test(self) -> None:
        """The dialog is closing: a test still waiting for the server ends now. Left running, it wrote its
        result into the deleted dialog and a RuntimeError traceback reached the console."""
        if self._test_task is not None and not self._test_task.done():
            self._test_task.cancel()

    async def _test(self, url: str, key: str) -> None:
        try:
            models = await self._list_models(url, key)
        except asyncio.CancelledError:
            raise  # the dialog closed: its widgets may be gone already
        except ModelsUnlisted as exc:  # a server of one model: asked with none named, it answers
            set_working(self.test_button, False)
            chat_model = self._fields["chat_model"].widget.currentText().strip()
            self._say_test(f"Connected. {exc.words(chat_model)}", failed=exc.needs_model and not chat_model)
            return
        except Exception as exc:  # the client's errors carry a person-readable message
            set_working(self.test_button, False)
            self._say_test(_test_failure(exc), failed=True)
            return
        set_working(self.test_button, False)
        # Embedding models are no chat models: the first run's rule (one rule, in firstrun) keeps them out of
        # the Chat model list, and puts them first in the Embedding model list.
        chat = [m for m in models if is_chat_model(m)]
        other = [m for m in models if m not in chat]
        current = self._fields["chat_model"].widget.currentText()
        self._list(chat, other)
        if not models:
            self._say_test("Connected, but the server lists no models.")
        elif current and chat and current not in models:
            self._say_missing(models, "Connected, but the")
        elif not chat:
            self._say_test(f"Connected, but the server lists only embedding models ({_some(other)}): none to "
                           "chat with.", failed=True)
        else:
            self._say_test(f"Connected. {_count(chat, 'chat model')}: {_some(chat)}"
                           + (f" (and {_count(other, 'embedding model')}: {_some(other)})" if other else ""))

    def _list(self, chat: list[str], other: list[str]) -> None:
        """The server's chat models in the Chat model list, its others first in the Embedding model list.

        The names typed stay as they were, an empty one too (the server's default): listing the models
        chose none. An empty Chat model took the first listed, and Esc then asked about unsaved changes the
        user never made (Save would have pinned a model they never chose)."""
        for field, names in (("chat_model", chat), ("embed_model", other + chat)):
            combo = self._fields[field].widget
            assert isinstance(combo, QComboBox)
            current = combo.currentText()
            combo.clear()
            combo.addItems(names)
            if current:
                combo.setCurrentText(current)
            else:
                combo.setCurrentIndex(-1)  # its placeholder, "(server default)", shows again
        self._listed = [*chat, *other]

    def _say_missing(self, models: list[str], start: str = "The") -> None:
        """As the status bar's "model missing": saved like this, every question failed on the server."""
        current = self._fields["chat_model"].widget.currentText()
        chat = [m for m in models if is_chat_model(m)]
        if current and chat and current not in models:
            self.test_result.show()
            self._say_test(f"{start} server has no model called “{current}”: choose one of {_some(chat)}.",
                           failed=True)

    def _say_test(self, text: str, *, failed: bool = False) -> None:
        """The test's outcome under the model field; a failure in the error colour (it was as grey as
        "Connected", so a glance did not tell which it was)."""
        self.test_result.setText(inline_code_html(text))  # "`ollama serve`" in a server error: as code
        self.test_result.setProperty("failed", failed)
        self.test_result.style().unpolish(self.test_result)
        self.test_result.style().polish(self.test_result)
        self._fit_timer.start()  # a long server error takes several lines
        self._warn_model()

    def models(self) -> list[str]:
        combo = self._fields["chat_model"].widget
        assert isinstance(combo, QComboBox)
        return [combo.itemText(i) for i in range(combo.count())]


def _test_failure(exc: Exception) -> str:
    """Why the test failed: "Could not connect" only when nothing answered; a server that answered with an
    error (404, 401, a web page) was reached, and "Could not connect" sent the user to check that it ran."""
    text = settings_words(str(exc))  # "check the Server URL above": the dialog is open
    if isinstance(exc, _ANSWERED) and text:
        return "Connected, but " + after_colon(text)
    return "Could not connect: " + after_colon(text)


# Words that keep their capital inside a sentence: the servers' names, and Settings as the app names it.
def _count(names: list[str], what: str) -> str:
    return f"{len(names)} {what}{'s' if len(names) != 1 else ''}"


def _some(names: list[str], most: int = 6) -> str:
    return ", ".join(names[:most]) + (f" and {len(names) - most} more" if len(names) > most else "")
