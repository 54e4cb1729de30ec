"""Icons and status badges drawn by the app itself, so no emoji or symbol font is ever needed.

The badges (⟳ running, ✓ done, ✗ error, – skipped) are painted with QPainter: a colour emoji font is
missing on many Linux desktops, offscreen and under Xvfb, and a missing glyph would show as an empty box.
Tool icons are small stroke SVGs in ``resources/icons`` tinted to the palette's text colour; a painted
wrench-less dot stands in when the resources folder is not there.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QIcon, QPainter, QPainterPath, QPalette, QPen, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QToolButton, QWidget

from ..resources import resource_path


STATUS_COLOURS = {
    "running": QColor("#2f6fde"),
    "done": QColor("#16a34a"),
    "error": QColor("#dc2626"),
    "skipped": QColor("#8a8f98"),
    "writing": QColor("#8a8f98"),  # a call the model is still writing: not running yet
}
STATUS_WORDS = {"running": "running", "done": "done", "error": "failed", "skipped": "skipped",
                "writing": "being written"}


def resource(*parts: str) -> Path:
    """A file under the app's resources folder (source checkout, wheel or bundle: see ``resources.py``)."""
    return resource_path(*parts)


@lru_cache(maxsize=64)
def _tinted(path: str, colour: str, size: int, ratio: float) -> QPixmap:
    px = QPixmap(QSize(size, size) * ratio)
    px.setDevicePixelRatio(ratio)
    px.fill(Qt.GlobalColor.transparent)
    painter = QPainter(px)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    if Path(path).is_file():
        QSvgRenderer(path).render(painter, QRectF(0, 0, size, size))
    else:
        painter.setBrush(QColor("#000"))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawEllipse(QRectF(size * 0.25, size * 0.25, size * 0.5, size * 0.5))
    painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceIn)
    painter.fillRect(QRectF(0, 0, size, size), QColor(colour))
    painter.end()
    return px


GENERIC_TOOL = "generic"  # the icon of a tool this version does not know, and of a card for several tools


def tool_pixmap(tool: str, colour: QColor, size: int = 18, ratio: float = 1.0) -> QPixmap:
    """The tool's icon, tinted; unknown tools get the generic one."""
    path = resource("icons", f"tool-{tool}.svg")
    if not path.is_file():
        path = resource("icons", f"tool-{GENERIC_TOOL}.svg")
    return _tinted(str(path), colour.name(), size, ratio)


def app_icon() -> QIcon:
    icon = QIcon()
    for size in (16, 24, 32, 48, 64, 128, 256, 512):
        png = resource("icons", "app", f"tinyrag-desktop-{size}.png")
        if png.is_file():
            icon.addFile(str(png), QSize(size, size))
    if icon.isNull() and resource("icons", "app.svg").is_file():
        icon = QIcon(str(resource("icons", "app.svg")))
    return icon


def paint_badge(painter: QPainter, rect: QRectF, status: str, angle: float = 0.0) -> None:
    """Draw one status badge into ``rect``: a spinning arc, a check, a cross or a dash on a disc."""
    colour = STATUS_COLOURS.get(status, STATUS_COLOURS["skipped"])
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    side = min(rect.width(), rect.height())
    r = QRectF(rect.center().x() - side / 2, rect.center().y() - side / 2, side, side)
    if status in ("running", "writing"):
        pen = QPen(colour, max(2.0, side / 8), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        inner = r.adjusted(side * 0.15, side * 0.15, -side * 0.15, -side * 0.15)
        painter.drawArc(inner, int(-angle * 16), 270 * 16)
    else:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        painter.drawEllipse(r)
        pen = QPen(QColor("white"), max(1.8, side / 8), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                   Qt.PenJoinStyle.RoundJoin)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        x, y, s = r.x(), r.y(), side
        path = QPainterPath()
        if status == "done":
            path.moveTo(x + s * 0.28, y + s * 0.52)
            path.lineTo(x + s * 0.44, y + s * 0.68)
            path.lineTo(x + s * 0.73, y + s * 0.35)
        elif status == "error":
            path.moveTo(x + s * 0.33, y + s * 0.33)
            path.lineTo(x + s * 0.67, y + s * 0.67)
            path.moveTo(x + s * 0.67, y + s * 0.33)
            path.lineTo(x + s * 0.33, y + s * 0.67)
        else:
            path.moveTo(x + s * 0.3, y + s * 0.5)
            path.lineTo(x + s * 0.7, y + s * 0.5)
        painter.drawPath(path)
    painter.restore()


class _Spinner:
    """One timer for every running badge: a dozen running cards cost one timer, not a dozen.

    Widgets that paint a running badge register here and are repainted ~12 times a second.
    """

    def __init__(self) -> None:
        self.angle = 0.0
        self._badges: set[QWidget] = set()
        self._timer = QTimer()
        self._timer.setInterval(80)
        self._timer.timeout.connect(self._tick)

    def add(self, badge: QWidget) -> None:
        self._badges.add(badge)
        if not self._timer.isActive():
            self._timer.start()

    def discard(self, badge: QWidget) -> None:
        self._badges.discard(badge)
        if not self._badges:
            self._timer.stop()

    def _tick(self) -> None:
        self.angle = (self.angle + 30.0) % 360.0
        for badge in list(self._badges):
            try:
                badge.update()
            except RuntimeError:  # the widget was deleted with its answer
                self.discard(badge)


_spinner: _Spinner | None = None


def spinner_angle() -> float:
    return _spinner.angle if _spinner is not None else 0.0


def shared_spinner() -> _Spinner:
    global _spinner
    if _spinner is None:
        _spinner = _Spinner()
    return _spinner


class StatusBadge(QWidget):
    """A painted ⟳/✓/✗/– badge; its accessible name says the state in words."""

    def __init__(self, status: str = "running", parent: QWidget | None = None, size: int = 18) -> None:
        super().__init__(parent)
        self._status = ""
        self.setFixedSize(size, size)
        self.set_status(status)

    @property
    def status(self) -> str:
        return self._status

    def set_status(self, status: str) -> None:
        if status == self._status:
            return
        self._status = status
        self.setAccessibleName(f"status: {STATUS_WORDS.get(status, status)}")
        self.setToolTip(STATUS_WORDS.get(status, status).capitalize())
        spinner = shared_spinner()
        if status == "running":
            spinner.add(self)
        else:
            spinner.discard(self)
        self.update()

    def hideEvent(self, event) -> None:  # noqa: N802 (Qt name)
        shared_spinner().discard(self)
        super().hideEvent(event)

    def showEvent(self, event) -> None:  # noqa: N802
        if self._status == "running":
            shared_spinner().add(self)
        super().showEvent(event)

    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QPainter(self)
        paint_badge(painter, QRectF(self.rect()).adjusted(1, 1, -1, -1), self._status, shared_spinner().angle)
        painter.end()


def status_pixmap(status: str, size: int = 16, ratio: float = 1.0) -> QPixmap:
    px = QPixmap(QSize(size, size) * ratio)
    px.setDevicePixelRatio(ratio)
    px.fill(Qt.GlobalColor.transparent)
    painter = QPainter(px)
    paint_badge(painter, QRectF(0, 0, size, size), status, 0.0)
    painter.end()
    return px


def dot_pixmap(colour: QColor, size: int = 10, ratio: float = 1.0) -> QPixmap:
    """A coloured disc, for the status bar's reachability light (the words sit beside it).

    ``ratio`` is the screen's device pixel ratio: drawn at 1 and scaled up, the disc was blurred at 150%
    and 200% display scaling.
    """
    px = QPixmap(QSize(size, size) * ratio)
    px.setDevicePixelRatio(ratio)
    px.fill(Qt.GlobalColor.transparent)
    painter = QPainter(px)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(colour)
    painter.drawEllipse(QRectF(0.5, 0.5, size - 1, size - 1))
    painter.end()
    return px


class ArrowButton(QToolButton):
    """A tool button with an arrow as large as its text. Fusion draws Qt's own arrows 8 pixels at most: at
    18 pt the find bar's up and down arrows were 6 pixel specks beside 24 pixel letters."""

    def __init__(self, arrow: Qt.ArrowType, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.arrow = arrow

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        side = self.fontMetrics().height() + 6
        return QSize(side, side)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return self.sizeHint()

    def arrow_size(self) -> float:
        """The arrow's width in pixels: half the text's height."""
        return self.fontMetrics().height() / 2

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().paintEvent(event)  # its hover and pressed look; Qt draws no arrow (it has none)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        group = QPalette.ColorGroup.Active if self.isEnabled() else QPalette.ColorGroup.Disabled
        side = self.arrow_size()
        painter.setPen(QPen(self.palette().color(group, QPalette.ColorRole.ButtonText), max(1.5, side / 6),
                            Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
        centre, half, rise = QRectF(self.rect()).center(), side / 2, side / 4
        flip = -1 if self.arrow == Qt.ArrowType.UpArrow else 1  # a chevron pointing down, or up
        path = QPainterPath()
        path.moveTo(centre.x() - half, centre.y() - flip * rise)
        path.lineTo(centre.x(), centre.y() + flip * rise)
        path.lineTo(centre.x() + half, centre.y() - flip * rise)
        painter.drawPath(path)
