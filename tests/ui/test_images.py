"""An image in an answer shows as a link named by its alt text: the window never fetches it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QUrl
from PySide6.QtGui import QDesktopServices, QTextDocument

from tests.url_handler import OpenedUrls
from tinyrag_desktop.ui.markdown_render import DARK, LIGHT
from tinyrag_desktop.ui.segments import MarkdownSegment


def _segment(qtbot, text: str, palette=LIGHT) -> MarkdownSegment:
    seg = MarkdownSegment(palette=palette)
    qtbot.add_widget(seg)
    seg.resize(560, 100)
    seg.show()
    seg.set_markdown(text)
    return seg


def _images(document: QTextDocument) -> list[str]:
    found, block = [], document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.isImageFormat():
                found.append(fmt.toImageFormat().name())
            it += 1
        block = block.next()
    return found


def _point(seg: MarkdownSegment, words: str) -> QPoint:
    """A point in the viewport on the first letters of ``words``."""
    cursor = seg.document().find(words)
    assert not cursor.isNull(), words
    cursor.setPosition(cursor.selectionStart() + 1)
    return seg.cursorRect(cursor).center()


@pytest.mark.parametrize("palette", [LIGHT, DARK])
def test_an_image_shows_as_a_link_named_by_its_alt_text(qtbot, palette):
    # It was an empty "broken page" icon: the window fetches nothing, and the alt text was lost.
    seg = _segment(qtbot, "The overview: ![architecture diagram](https://example.org/a.png), and "
                          "![](/home/me/pictures/flow%20chart.png \"Flow\").", palette)
    assert _images(seg.document()) == []
    text = seg.document().toPlainText()
    assert "Image: architecture diagram" in text
    assert "Image: flow chart.png" in text  # no alt text: the file's name
    assert seg.anchorAt(_point(seg, "architecture")) == "https://example.org/a.png"
    assert seg.anchorAt(_point(seg, "flow chart")) == "/home/me/pictures/flow%20chart.png"
    assert f"color:{palette.link}" in seg.toHtml().replace(" ", "")  # drawn in the link colour
    assert seg.markdown().startswith("The overview: ![architecture diagram](https://example.org/a.png)")


def test_images_by_reference_in_a_link_or_without_an_address(qtbot):
    seg = _segment(qtbot, "![logo][l] [![build passing](https://ci.example.org/badge.svg)](https://ci.example.org)"
                          " ![](data:image/png;base64,iVBORw0KGgo=) ![nothing]()\n\n[l]: https://example.org/logo.png")
    assert _images(seg.document()) == []
    assert seg.document().toPlainText() == "Image: logo Image: build passing Image Image: nothing"
    assert seg.anchorAt(_point(seg, "logo")) == "https://example.org/logo.png"
    assert seg.anchorAt(_point(seg, "build passing")) == "https://ci.example.org"  # the link it is in
    assert seg.anchorAt(_point(seg, "nothing")) == ""


def test_an_image_link_opens_only_as_links_do_and_a_local_picture_in_the_viewer(qtbot, tmp_path):
    picture = tmp_path / "flow chart.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n")
    script = tmp_path / "run.sh"
    script.write_text("echo hi\n")
    address = QUrl.fromLocalFile(str(picture)).toString()
    seg = _segment(qtbot, f"![diagram](https://example.org/a.png) ![first]({address})"
                          f" ![second]({picture.as_posix().replace(' ', '%20')}) [run]({script.as_posix()})"
                          " ![third](pictures/b.png) [mail](mailto:a@example.org)")
    web, files, mail = OpenedUrls(), OpenedUrls(), OpenedUrls()
    QDesktopServices.setUrlHandler("https", web, "open")
    QDesktopServices.setUrlHandler("file", files, "open")
    QDesktopServices.setUrlHandler("mailto", mail, "open")
    try:
        for words in ("diagram", "first", "second", "run", "third", "mail"):
            seg.anchorClicked.emit(QUrl(seg.anchorAt(_point(seg, words))))
        seg.anchorClicked.emit(QUrl("javascript:alert(1)"))
    finally:
        for scheme in ("https", "file", "mailto"):
            QDesktopServices.unsetUrlHandler(scheme)
    assert [u.toString() for u in web.urls] == ["https://example.org/a.png"]
    # the picture opens (twice: as a file: address and as a path); a script and a relative path do not
    assert [u.toLocalFile() for u in files.urls] == [str(picture), str(picture)]
    assert [u.toString() for u in mail.urls] == ["mailto:a@example.org"]
