"""The Qt window: widgets, the chat view, and the bridge from engine events to Qt signals."""

from __future__ import annotations

from importlib import import_module
from typing import Any

# Imported on first use, so `import tinyrag_desktop.ui.kb_panel` (or a test of one widget) stays light.
_EXPORTS = {
    "MainWindow": ".main_window", "EngineBridge": ".bridge", "ChatView": ".chat_view", "AnswerWidget": ".answer",
    "ToolCard": ".toolcard", "SettingsDialog": ".settings_dialog", "ConfirmDialog": ".confirm_dialog",
    "ChatsSidebar": ".sidebar", "Composer": ".composer",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(module, __name__), name)
