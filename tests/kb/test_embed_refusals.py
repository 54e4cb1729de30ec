"""An embedding server that answers with an error is said in words: what the error means for the import
(no such model, a refused key, a failure on its side) and the server's own message, not its raw answer."""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler

import pytest
from hypothesis import given, settings, strategies as st

from tests.loopback import serving
from tinyrag_desktop.kb import Importer, open_store
from tinyrag_desktop.kb.embed import Embedder, query_vector
from tinyrag_desktop.settings import defaults

_OLLAMA_404 = b'{"error":"model \\"nomic-embed-text\\" not found, try pulling it first"}'
_OPENAI_401 = b'{"error": {"message": "Incorrect API key provided.", "type": "invalid_request_error"}}'
_PAGE_500 = (b"<!DOCTYPE html><html><head><title>500 Internal Server Error</title></head><body><h1>Oops</h1>"
             + b"x" * 900 + b"</body></html>")


def _answering(status: int, content_type: str, body: bytes) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:  # noqa: N802
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return Handler


@pytest.mark.parametrize(("status", "content_type", "body", "said"), [
    (404, "application/json", _OLLAMA_404,
     "the embedding server has no embedding model named 'nomic-embed-text', or no /embeddings address (error "
     "404): model \"nomic-embed-text\" not found, try pulling it first"),
    (401, "application/json", _OPENAI_401,
     "the embedding server refused the API key (error 401): Incorrect API key provided."),
    (500, "text/html; charset=utf-8", _PAGE_500, "the embedding server failed (error 500): 500 Internal Server Error"),
    (502, "text/plain", b"\n  upstream connect error  \nreset reason: overflow\n",
     "the embedding server failed (error 502): upstream connect error"),
    # FastAPI's list of problems, koboldcpp's busy server, an error that is a flag beside its message: said as
    # nothing (the chat's client read them; this one did not)
    (422, "application/json", b'{"detail": [{"loc": ["body", "input"], "msg": "Field required"}]}',
     "the embedding server refused the request (error 422): input: Field required"),
    (503, "application/json",
     b'{"detail": {"msg": "Server is busy; please try again later.", "type": "service_unavailable"}}',
     "the embedding server failed (error 503): Server is busy; please try again later."),
    (500, "application/json", b'{"error": true, "message": "Model failed to load"}',
     "the embedding server failed (error 500): Model failed to load"),
    # a JSON error's words on one line, all of them (the first-line rule of a plain text cut them); JSON that
    # says no error is no reason (it was shown raw)
    (500, "application/json", b'{"error": {"message": "out of memory\\nwhile loading"}}',
     "the embedding server failed (error 500): out of memory while loading"),
    (500, "application/json", b'{"object": "list", "data": []}', "the embedding server failed (error 500)"),
], ids=["ollama-no-model", "openai-key", "html-page", "plain-text", "fastapi-422", "koboldcpp-busy", "error-flag",
        "json-lines", "json-no-error"])
def test_an_import_says_what_the_embedding_server_answered(tmp_path, data_dir, status, content_type, body, said):
    note = tmp_path / "note.md"
    note.write_text("# Herons\n\nHerons stand still in shallow water.\n", encoding="utf-8")
    with serving(_answering(status, content_type, body)) as url:
        embedder = Embedder(defaults().replace(base_url=url + "/v1", embed_model="nomic-embed-text"))
        kb = open_store(data_dir)
        try:
            report = Importer(kb, embedder=embedder).run([str(note)])
        finally:
            embedder.close()
            kb.close()
    assert report.added == [str(note)] and report.unembedded == [str(note)]  # stored for keyword search
    assert report.embedding_problem == said


async def test_a_search_says_it_too():
    with serving(_answering(404, "application/json", _OLLAMA_404)) as url:
        settings_ = defaults().replace(base_url=url + "/v1", embed_model="nomic-embed-text")
        vector, why = await query_vector(settings_, "herons")
    assert vector is None
    assert why.startswith("the embedding server has no embedding model named 'nomic-embed-text'")


@settings(max_examples=150, deadline=None)
@given(status=st.sampled_from([400, 401, 404, 429, 500, 503]), body=st.binary(max_size=400),
       content_type=st.sampled_from(["application/json", "text/plain", "text/html", ""]))
def test_any_answer_gives_one_short_line(status, body, content_type):
    import httpx

    from tinyrag_desktop.kb.embed import _refusal

    response = httpx.Response(status, content=body, headers={"Content-Type": content_type} if content_type else {})
    said = str(_refusal(response, "m"))
    assert said.startswith("the embedding server ") and f"error {status}" in said
    assert "\n" not in said and len(said) < 350
