"""Outside text (model output, file names, passages, server errors, model names) shown as it is written in
tooltips and labels, never read as rich text.

Qt reads a tooltip, a QMessageBox text or an AutoText QLabel as HTML when ``Qt.mightBeRichText`` says it may
be: one known tag before the first line break is enough. ``<img src=/dev/urandom>`` in a link's address, a
tool's name or a knowledge-base passage then made Qt load that file as a picture on hover, until memory ran
out (a local picture was loaded and shown at 3000 px). Labels that show such text are set to PlainText
(``plain_label``); tooltips, which have no format of their own, are escaped (``plain_tip``).
"""

from __future__ import annotations

import html

from PySide6.QtGui import Qt  # QtGui's Qt holds mightBeRichText
from PySide6.QtWidgets import QLabel, QMessageBox


def plain_tip(text: str) -> str:
    """``text`` as a tooltip Qt shows literally: unchanged when Qt reads it as plain text anyway, else escaped
    rich text that keeps its line breaks and spaces."""
    if not text or not Qt.mightBeRichText(text):
        return text
    return f"<p style='white-space:pre-wrap'>{html.escape(text, quote=False)}</p>"


def plain_label(label: QLabel | QMessageBox) -> QLabel | QMessageBox:
    """``label`` (or a message box) showing its text as written: tags in it are words, not markup."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label
