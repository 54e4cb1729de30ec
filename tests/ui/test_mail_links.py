"""A mailto: link from the model opens the mail program with its address, subject, body and copies only:
attach= (which some mail programs honour, attaching a file from this computer) and the rest are left out."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QDesktopServices

from tests.url_handler import OpenedUrls
from tinyrag_desktop.mail_links import safe_mailto

from .test_images import _point, _segment


def test_only_the_address_subject_body_and_copies_are_kept():
    assert safe_mailto("mailto:a@b.c?subject=Hi%20there&attach=/etc/passwd&body=x+y") \
        == "mailto:a@b.c?subject=Hi%20there&body=x+y"  # the fields kept as written: + is a plus in mailto
    assert safe_mailto("MAILTO:a@b.c?Attach=%2Fetc%2Fpasswd&%61ttachment=x&bcc=e@x.y&cc=c@d.e") \
        == "mailto:a@b.c?cc=c@d.e"
    assert safe_mailto("mailto:a@b.c") == "mailto:a@b.c"
    assert safe_mailto("https://example.org/?attach=1") == "https://example.org/?attach=1"


def test_clicking_a_models_mail_link_opens_it_without_an_attachment(qtbot):
    seg = _segment(qtbot, "Write to [support](mailto:help@example.org?subject=Logs&attach=/home/me/.ssh/id_rsa"
                          "&body=Hello) today.")
    opened = OpenedUrls()
    QDesktopServices.setUrlHandler("mailto", opened, "open")
    try:
        qtbot.mouseClick(seg.viewport(), Qt.MouseButton.LeftButton, pos=_point(seg, "support"))
    finally:
        QDesktopServices.unsetUrlHandler("mailto")
    assert [bytes(url.toEncoded()).decode() for url in opened.urls] == [
        "mailto:help@example.org?subject=Logs&body=Hello"]
