"""The HTML export shows Arabic and Hebrew right to left: each block of text in its own direction, code left
to right (a browser laid them all out left to right: the words of a sentence in the wrong order)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from tinyrag_desktop.chat_export import export_html
from tinyrag_desktop.chats import ChatInfo, StoredMessage, StoredTool

ANSWER = """مرحبا! هذا مثال على استخدام الأمر `git rebase -i HEAD~3` لتعديل آخر ثلاثة تغييرات.

```bash
# تعليق بالعربية
git rebase -i HEAD~3
```

1. الخطوة الأولى: افتح الطرفية (terminal).
2. שלב שני: הרץ את הפקודה `ls -la` ובדוק.
3. Third step in English.

| العمود | القيمة |
|--------|--------|
| الاسم | تجربة |

> ملاحظة: نسخة Python 3.11 مطلوبة.

- فقرة:

  ```
  echo "نص"
  ```
"""


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.style = ""
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_style = tag == "style"

    def handle_data(self, data):
        if self._in_style:
            self.style += data

    def handle_endtag(self, tag):
        self._in_style = False


def _page() -> _Tags:
    tool = StoredTool("c1", "wikipedia", "القاهرة", "ok", result="القاهرة هي عاصمة مصر.\nCairo is the capital.")
    messages = [StoredMessage(1, "user", "كيف أستخدم git rebase؟\nבעברית גם."),
                StoredMessage(2, "assistant", ANSWER, tools=(tool,))]
    tags = _Tags()
    tags.feed(export_html(ChatInfo("c", "كيف أستخدم git rebase؟", "", 0.0, 0.0), messages))
    return tags


def test_lists_tables_and_quotes_take_the_direction_of_their_first_words():
    tags = _page()
    blocks = [(tag, attrs) for tag, attrs in tags.tags if tag in ("ul", "ol", "table", "blockquote")]
    assert {tag for tag, _ in blocks} == {"ul", "ol", "table", "blockquote"}
    assert all(attrs.get("dir") == "auto" for _, attrs in blocks), blocks


def test_each_paragraph_item_and_cell_takes_its_own_direction_and_leaves_its_list_its_own():
    # dir="auto" on a list looks for its first letter in what has no dir of its own: items with dir="auto"
    # left the list nothing to go by, and it stayed left to right (its numbers on the left)
    tags = _page()
    texts = [(tag, attrs) for tag, attrs in tags.tags if tag in ("h1", "h2", "h3", "p", "li", "th", "td")]
    assert {tag for tag, _ in texts} >= {"h1", "p", "li", "th", "td"}
    assert not any("dir" in attrs for _, attrs in texts), texts
    rules = re.sub(r"\s+", "", tags.style)
    plaintext = re.search(r"([a-z0-9,]+)\{unicode-bidi:plaintext;text-align:start\}", rules)
    assert plaintext is not None and set(plaintext.group(1).split(",")) >= {"h1", "h2", "h3", "p", "li", "th", "td"}
    assert "li:dir(rtl)" in rules and "td:dir(rtl)" in rules  # aligned with their list or table


def test_code_stays_left_to_right_and_a_tools_output_takes_each_lines_direction():
    tags = _page()
    code = [(tag, attrs) for tag, attrs in tags.tags if tag in ("pre", "code")]
    outputs = [attrs for tag, attrs in code if tag == "pre" and attrs.get("class") == "out"]
    assert len(outputs) == 1 and outputs[0]["dir"] == "auto"  # the article's lines: Arabic, then English
    others = [(tag, attrs) for tag, attrs in code if attrs.get("class") != "out"]
    assert len([t for t, _ in others if t == "pre"]) == 2 and len([t for t, _ in others if t == "code"]) >= 4
    assert all(attrs.get("dir") == "ltr" for _, attrs in others), others
    queries = [attrs for tag, attrs in tags.tags if tag == "span" and attrs.get("class") == "q"]
    assert queries and all(attrs.get("dir") == "auto" for attrs in queries)  # an Arabic query kept whole
