"""The README screenshots: light (an answer with tools) and dark (card states, an expanded card).

Run from the repository root: ``QT_QPA_PLATFORM=offscreen .venv/bin/python docs/make_screenshots.py docs``.
The model is the scripted loopback server of the tests; tools and the knowledge base are real.
"""
import asyncio
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from PySide6.QtWidgets import QApplication
from tests.sse_server import ScriptedLLMServer, Stream
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui.main_window import MainWindow
from tinyrag_desktop.ui.qtloop import TidyEventLoop

NOTE = """# tinyRAG streaming architecture

The engine streams tokens from the model and feeds each chunk to a sans-I/O parser. Each complete tool block
starts at once, while the model keeps writing; results come back as tool_result events. The window renders
only the active text segment, at most thirty times a second.
"""


def tokens(t, n=4): return [t[i:i+n] for i in range(0, len(t), n)]

R1 = """I'll check your notes and do the arithmetic.

<tool name="rag_knowledge"><query>tinyRAG streaming architecture</query></tool>
<tool name="calculate"><query>(17 + 5) * 3 / 2</query></tool>
"""
R2 = """**(17 + 5) × 3 / 2 = 33.** Your notes describe the streaming like this:

## How tinyRAG streams an answer

1. The engine streams tokens from the model.
2. A sans-I/O parser spots each complete `<tool>` block and **starts it at once**.
3. The window re-renders only the active text segment, at most 30 times a second.

```python
async for event in engine.run(messages):
    bridge.emit(event)   # text, tool_start, tool_result, done
```

| Stage  | Runs on          |
|--------|------------------|
| Parser | pure Python      |
| Tools  | asyncio tasks    |
| View   | Qt, via a bridge |
"""
D1 = """Let me look that up.

<tool name="websearch"><query>Go 1.22 range over int</query></tool>
<tool name="calculate"><query>sqrt(2) * 10</query></tool>
<tool name="calculate"><query>1 / 0</query></tool>
"""
D2 = """The web tools are off in Settings, so I used what I know. Since **Go 1.22** you can range over an integer:

```go
for i := range 3 {
    fmt.Println(i) // 0, 1, 2
}
```

And √2 × 10 ≈ **14.142**; 1 / 0 has no value.
"""

async def ask(w, q):
    fut = asyncio.get_running_loop().create_future()
    w.answerFinished.connect(lambda o: fut.done() or fut.set_result(o))
    w.ask(q)
    return await fut

async def main(outdir):
    with ScriptedLLMServer(models=("qwen2.5:7b-instruct", "llama3.2:3b")) as s:
        for q in ("Summarise my meeting notes", "Explain Go generics with an example", "Plan a 3-day trip to Lisbon"):
            s.queue(Stream(tokens("Sure.")))
        s.queue(Stream(tokens(R1), reasoning=tokens("The user asks for a sum and about the architecture: search the notes, then calculate.")),
                Stream(tokens(R2)))
        d = Path(tempfile.mkdtemp())
        note = d / "streaming.md"
        note.write_text(NOTE, encoding="utf-8")
        subprocess.run([sys.executable, "-m", "tinyrag_desktop", "kb", "add", str(note), "--data-dir", str(d)],
                       check=True, capture_output=True, cwd=ROOT)
        w = MainWindow(d, defaults().replace(base_url=s.base_url, chat_model="qwen2.5:7b-instruct", network_tools=False))
        w.resize(1200, 820); w.show()
        for q in ("Summarise my meeting notes", "Explain Go generics with an example", "Plan a 3-day trip to Lisbon"):
            w.new_chat(); await ask(w, q)
        w.new_chat()
        w.menus.show_routing.trigger()
        await ask(w, "What is (17 + 5) * 3 / 2, and how does tinyRAG stream answers?")
        await asyncio.sleep(0.3)
        w.grab().save(f"{outdir}/screenshot-light.png")
        # dark
        w.apply_settings(w.settings.replace(theme="dark"))
        w.menus.show_routing.trigger()
        s.queue(Stream(tokens(D1)), Stream(tokens(D2)))
        w.new_chat()
        await ask(w, "What does Go 1.22 change about range loops? Also sqrt(2) * 10 and 1 / 0.")
        await asyncio.sleep(0.2)
        a = w.view.answers()[-1]
        a.cards()[1].set_expanded(True)
        await asyncio.sleep(0.3)
        w.statusBar().clearMessage(); await asyncio.sleep(0.05)
        w.grab().save(f"{outdir}/screenshot-dark.png")
        await w.aclose()
        w.close()  # closed and deleted before the interpreter ends: left to its teardown, Qt crashed (SIGSEGV)
        w.deleteLater()
        await asyncio.sleep(0)

if __name__ == "__main__":
    app = QApplication([])
    loop = TidyEventLoop(app)
    asyncio.set_event_loop(loop)
    with loop:
        loop.run_until_complete(main(sys.argv[1] if len(sys.argv) > 1 else "docs"))
