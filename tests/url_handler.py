"""Stands in for the desktop's URL handler (QDesktopServices.setUrlHandler), so a test sees what a click opens."""

from __future__ import annotations

from PySide6.QtCore import QObject, QUrl, Slot


class OpenedUrls(QObject):
    """Registered for a scheme, it keeps each URL the app asked the desktop to open, instead of opening it."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url)

    def addresses(self) -> list[str]:
        return [url.toString() for url in self.urls]
