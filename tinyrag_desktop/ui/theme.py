"""Light and dark themes: a Fusion palette for everything, colours for painted widgets, chrome style sheet.

Why not one app-wide style sheet: Qt gives every widget under a style sheet its own rule cache, which
doubles the memory of each text segment and tool card (50 long answers went from ~250 MB to ~490 MB).
So the conversation's widgets use the palette and paint their own boxes with :func:`colors`, and the
style sheet in ``resources/themes`` is set only on the window's chrome: sidebar, header, composer, dialogs.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QGuiApplication, QPainter, QPalette, QPen
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleOptionHeader, QStyleOptionSlider, QWidget

from .icons import resource
from .markdown_render import DARK, LIGHT, Palette


@dataclass(frozen=True, slots=True)
class Colors:
    """The theme's named colours (``@name`` in the .qss files), for widgets that paint themselves."""

    bg: QColor
    line: QColor
    text: QColor
    muted: QColor
    accent: QColor
    note: QColor
    bubble: QColor
    card: QColor
    error: QColor
    errorbg: QColor
    errortext: QColor
    warn: QColor
    dark: bool


_LIGHT_DEFAULTS = {"@bg": "#ffffff", "@line": "#dfe3e8", "@text": "#1d2330", "@muted": "#5c6370",
                   "@accent": "#2563eb", "@note": "#f3f4f6", "@bubble": "#eaf0fe", "@card": "#f9fafb",
                   "@error": "#dc2626", "@errorbg": "#fef2f2", "@errortext": "#b91c1c", "@warn": "#b45309"}
_current: Colors | None = None


def colors() -> Colors:
    """The colours of the theme applied last (light before any)."""
    global _current
    if _current is None:
        _current = _colors(False)
    return _current


def _colors(dark: bool) -> Colors:
    v = {**_LIGHT_DEFAULTS, **_variables("dark" if dark else "light")}
    return Colors(*(QColor(v[f"@{name}"]) for name in (
        "bg", "line", "text", "muted", "accent", "note", "bubble", "card", "error", "errorbg", "errortext",
        "warn")), dark=dark)


def paint_focus_ring(widget: QWidget, radius: float = 4.0) -> None:
    """Ring ``widget`` in the accent colour while it has the keyboard focus (call at the end of paintEvent).

    Fusion marks a focused flat button with a pale blue frame that is hard to see on white or on the dark
    background (about 1.5:1); this ring has the accent's contrast, as the cards' focus border does.
    """
    if not widget.hasFocus():
        return
    painter = QPainter(widget)
    draw_ring(painter, widget.rect(), radius)
    painter.end()


def is_dark(theme: str) -> bool:
    """``system`` follows the desktop's colour scheme where Qt can read it, else light."""
    if theme in ("light", "dark"):
        return theme == "dark"
    hints = QGuiApplication.styleHints()
    return hints.colorScheme() == Qt.ColorScheme.Dark


def _variables(name: str) -> dict[str, str]:
    out: dict[str, str] = {}
    path = resource("themes", f"{name}.qss")
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            key, sep, value = line.partition("=")
            if sep and key.startswith("@"):
                out[key.strip()] = value.strip()
    return out


def style_sheet(dark: bool) -> str:
    base = resource("themes", "base.qss")
    if not base.is_file():
        return ""
    text = base.read_text(encoding="utf-8")
    names = {**_variables("dark" if dark else "light"), "@icons": resource("icons").as_posix()}
    # Longest names first, so @errorbg is not read as @error followed by "bg".
    for key, value in sorted(names.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(key, value)
    return text


def _palette(dark: bool) -> QPalette:
    pal = QPalette()
    v = _variables("dark" if dark else "light")
    bg = QColor(v.get("@bg", "#1e2027" if dark else "#ffffff"))
    text = QColor(v.get("@text", "#e6e8ee" if dark else "#1d2330"))
    base = QColor(v.get("@input", bg.name()))
    alt = QColor(v.get("@side", bg.name()))
    accent = QColor(v.get("@accent", "#2563eb"))
    muted = QColor(v.get("@muted", "#5c6370"))
    role = QPalette.ColorRole
    for r, c in ((role.Window, bg), (role.WindowText, text), (role.Base, base), (role.AlternateBase, alt),
                 (role.Text, text), (role.Button, alt), (role.ButtonText, text), (role.ToolTipBase, alt),
                 (role.ToolTipText, text), (role.Highlight, accent), (role.HighlightedText, QColor("white")),
                 (role.Link, accent), (role.PlaceholderText, muted)):
        pal.setColor(r, c)
    pal.setColor(QPalette.ColorGroup.Disabled, role.Text, muted)
    pal.setColor(QPalette.ColorGroup.Disabled, role.ButtonText, muted)
    pal.setColor(QPalette.ColorGroup.Disabled, role.WindowText, muted)
    return pal


class _Style(QProxyStyle):
    """Fusion, with scroll bars whose handle stands out from its track, and focus an accent ring shows.

    Fusion draws the track a shade darker than the palette's Button colour (the sidebar's, for the buttons)
    and the handle a shade lighter: in the light theme an almost white handle on a grey track (1.16:1), which
    read as the other way round. The track and handle take the theme's @scroll colours instead; the arrows
    stay Fusion's. A style, not a style sheet: see the module's docstring.

    Fusion marks the focus of a button, a combo box, a tab, a check box or a list's row with a pale frame
    (1.6 to 2.2:1 against its surroundings, and on the dialogs' default button the same frame with or without
    the focus): a keyboard user lost track of it. Those get the accent ring the app's own widgets paint.

    Fusion's check box border is the window colour darkened: 1.1:1 on the dark theme's input colour, 1.7:1 on
    white, so an unticked box all but vanished. It is drawn over in the theme's @checkborder (3:1 or more).
    Its size, 14 px whatever the text, and its gap to the label grow with the text's (16 pt text: 19 px).

    Dialog buttons go without the desktop's icons (a floppy disk on Save, a cross on Cancel), as every other
    button of the app does: the icon sat against the word, cramped, and at large text looked out of place.
    """

    def __init__(self) -> None:
        super().__init__("Fusion")
        self.scroll: dict[str, QColor] = {}
        self.check_border = QColor()

    def drawPrimitive(self, element, option, painter, widget=None) -> None:  # noqa: N802
        if element == QStyle.PrimitiveElement.PE_FrameFocusRect:
            # On a selected row (the accent) the ring is drawn in the selection's text colour.
            role = QPalette.ColorRole
            selected = getattr(option, "backgroundColor", None) == option.palette.color(role.Highlight)
            draw_ring(painter, option.rect, 3.0, option.palette.color(role.HighlightedText) if selected else None)
            return
        super().drawPrimitive(element, option, painter, widget)
        if element == QStyle.PrimitiveElement.PE_IndicatorCheckBox:
            self._check_border(option, painter)
        if not option.state & QStyle.StateFlag.State_HasFocus:
            return
        if element == QStyle.PrimitiveElement.PE_PanelButtonCommand:
            # inside Fusion's frame: a default button's frame is already blue, in the accent's place
            draw_ring(painter, option.rect.adjusted(1, 1, -1, -1), 3.0)
        elif element == QStyle.PrimitiveElement.PE_PanelLineEdit and option.lineWidth > 0:
            draw_ring(painter, option.rect, 3.0)  # Fusion's 1 px turned from grey to pale blue (1.6:1)

    def styleHint(self, hint, option=None, widget=None, data=None) -> int:  # noqa: N802
        if hint == QStyle.StyleHint.SH_DialogButtonBox_ButtonsHaveIcons:
            return 0
        return super().styleHint(hint, option, widget, data)

    def subElementRect(self, element, option, widget=None):  # noqa: N802
        rect = super().subElementRect(element, option, widget)
        if element != QStyle.SubElement.SE_HeaderLabel or getattr(option, "sortIndicator", None) in (
                None, QStyleOptionHeader.SortIndicator.None_):
            return rect
        # Fusion's label ran 3 px under the sort arrow: a column narrower than its name and arrow ("Imported
        # ▲" in the knowledge panel) drew the arrow over the name's last letter instead of cutting it ("…")
        arrow = super().subElementRect(QStyle.SubElement.SE_HeaderArrow, option, widget)
        gap = self.pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, option, widget)
        if arrow.center().x() > rect.center().x():
            rect.setRight(min(rect.right(), arrow.left() - gap))
        else:
            rect.setLeft(max(rect.left(), arrow.right() + gap))
        return rect

    def pixelMetric(self, metric, option=None, widget=None) -> int:  # noqa: N802
        size = super().pixelMetric(metric, option, widget)
        if metric not in _INDICATORS and metric not in _LABEL_SPACINGS:
            return size
        metrics = option.fontMetrics if option is not None else \
            widget.fontMetrics() if widget is not None else QApplication.fontMetrics()
        return max(size, round(metrics.height() * (0.8 if metric in _INDICATORS else 0.3)))

    def _check_border(self, option, painter: QPainter) -> None:
        """Fusion's faint check box border drawn over in @checkborder; kept where Fusion's says something
        (disabled: fainter on purpose; keyboard focus: the accent)."""
        flag = QStyle.StateFlag
        focused = option.state & flag.State_HasFocus and option.state & flag.State_KeyboardFocusChange
        if not self.check_border.isValid() or not option.state & flag.State_Enabled or focused:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.translate(0.5, 0.5)  # as Fusion draws it: on whole pixels
        painter.setPen(QPen(self.check_border, 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(option.rect.adjusted(0, 0, -1, -1))
        painter.restore()

    def drawControl(self, element, option, painter, widget=None) -> None:  # noqa: N802
        super().drawControl(element, option, painter, widget)
        if element == QStyle.ControlElement.CE_TabBarTab and option.state & QStyle.StateFlag.State_HasFocus:
            draw_ring(painter, option.rect.adjusted(2, 2, -2, 0), 3.0)

    def drawComplexControl(self, control, option, painter, widget=None) -> None:  # noqa: N802
        if control in _RINGED and option.state & QStyle.StateFlag.State_HasFocus \
                and not getattr(option, "editable", False):  # an editable box's line edit shows its focus
            super().drawComplexControl(control, option, painter, widget)
            draw_ring(painter, option.rect, 3.0)
            return
        if control != QStyle.ComplexControl.CC_ScrollBar or not self.scroll:
            super().drawComplexControl(control, option, painter, widget)
            return
        sub = QStyle.SubControl
        painter.save()
        painter.fillRect(option.rect, self.scroll["track"])
        arrows = QStyleOptionSlider(option)
        arrows.subControls = option.subControls & (sub.SC_ScrollBarAddLine | sub.SC_ScrollBarSubLine)
        arrows.palette = QPalette(option.palette)
        arrows.palette.setColor(QPalette.ColorRole.Button, self.scroll["track"])
        super().drawComplexControl(control, arrows, painter, widget)
        if option.subControls & sub.SC_ScrollBarSlider:
            on = bool(option.activeSubControls & sub.SC_ScrollBarSlider)
            state = option.state
            name = ("pressed" if on and state & QStyle.StateFlag.State_Sunken else
                    "hover" if on and state & QStyle.StateFlag.State_MouseOver else "handle")
            handle = QRectF(self.subControlRect(control, option, sub.SC_ScrollBarSlider, widget))
            across = option.orientation == Qt.Orientation.Horizontal
            handle.adjust(1 if across else 3, 3 if across else 1, -1 if across else -3, -3 if across else -1)
            radius = min(handle.width(), handle.height()) / 2
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(self.scroll[name])
            painter.drawRoundedRect(handle, radius, radius)
        painter.restore()


_INDICATORS = (QStyle.PixelMetric.PM_IndicatorWidth, QStyle.PixelMetric.PM_IndicatorHeight,
               QStyle.PixelMetric.PM_ExclusiveIndicatorWidth, QStyle.PixelMetric.PM_ExclusiveIndicatorHeight)
_LABEL_SPACINGS = (QStyle.PixelMetric.PM_CheckBoxLabelSpacing, QStyle.PixelMetric.PM_RadioButtonLabelSpacing)
_RINGED = (QStyle.ComplexControl.CC_ComboBox, QStyle.ComplexControl.CC_ToolButton)


def draw_ring(painter: QPainter, rect, radius: float, colour: QColor | None = None) -> None:
    """The focus ring: 2 px of the accent (or ``colour``) just inside ``rect``."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QPen(colour or colors().accent, 2))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRoundedRect(QRectF(rect).adjusted(1, 1, -1, -1), radius, radius)
    painter.restore()


def _scroll_colours(dark: bool) -> dict[str, QColor]:
    v = _variables("dark" if dark else "light")
    fallback = (("#1c1e25", "#4b5160", "#646b7b", "#7c8496") if dark else
                ("#f1f2f4", "#b4bac4", "#8f96a3", "#747b88"))
    return {name: QColor(v.get(f"@scroll{name}", default)) for name, default in
            zip(("track", "handle", "hover", "pressed"), fallback)}


def apply_theme(app: QApplication, theme: str) -> Palette:
    """Apply ``light``, ``dark`` or ``system``; returns the colours rendered Markdown should use.

    Set :func:`style_sheet` on the chrome widgets yourself (the window does); it is not app-wide.
    """
    global _current
    dark = is_dark(theme)
    _current = _colors(dark)
    style = app.style()
    if not isinstance(style, _Style):
        style = _Style()  # Fusion: the same look on every platform, and it honours the palette fully
        app.setStyle(style)
    style.scroll = _scroll_colours(dark)
    style.check_border = QColor(_variables("dark" if dark else "light").get("@checkborder", "#808794"))
    app.setPalette(_palette(dark))
    return DARK if dark else LIGHT
