import re, sqlite3, sys, glob
from collections import Counter
db = glob.glob(sys.argv[1] + '/*.db')[0]
conn = sqlite3.connect(db)
texts = [t for (t,) in conn.execute("select text from chunks")]
pairs = Counter()
P1 = re.compile(r"\b((?:[A-Za-z][\w-]*\s){0,2}[A-Za-z][\w-]*)\s+\((?:also called|also known as|sometimes called|often called|a\.k\.a\.|or|i\.e\.,?|that is,?)\s+[“\"]?([A-Za-z][\w -]{0,40}?)[”\"]?\)")
P2 = re.compile(r"\b((?:[A-Za-z][\w-]*\s){0,2}[A-Za-z][\w-]*),?\s+(?:also called|also known as|sometimes called|often called|otherwise known as)\s+[“\"]?((?:[A-Za-z][\w-]*\s?){1,3})")
P3 = re.compile(r"\b((?:[A-Z][a-z]+[ -]){1,4}[A-Z][a-z]+)\s+\(([A-Z]{2,6})\)")
for t in texts:
    for a, b in P1.findall(t): pairs[(a.lower().strip(), b.lower().strip())] += 1
    for a, b in P2.findall(t): pairs[(a.lower().strip(), b.lower().strip())] += 1
    for a, b in P3.findall(t):
        ini = "".join(w[0] for w in re.split(r"[ -]", a)).upper()
        if ini.endswith(b) or b in ini: pairs[(a.lower(), b.lower())] += 1
print(len(pairs))
for (a, b), n in pairs.most_common(int(sys.argv[2]) if len(sys.argv) > 2 else 60): print(n, a, '|', b)
clean = Counter()
for t in texts:
    for a, b in P2.findall(t): clean[(a.lower().strip(), b.lower().strip())] += 1
    for a, b in P3.findall(t):
        ini = "".join(w[0] for w in re.split(r"[ -]", a)).upper()
        if ini == b: clean[(a.lower(), b.lower())] += 1
    for a, b in re.findall(r"\b([A-Za-z][\w-]*(?:\s[A-Za-z][\w-]*){0,2})\s+\((?:also called|also known as|sometimes called|often called)\s+[“\"]?([A-Za-z][\w -]{0,40}?)[”\"]?\)", t):
        clean[(a.lower(), b.lower())] += 1
print("clean", len(clean))
qs = [l.split('\t')[0].lower() for l in open('benchmarks/data/pg15_questions.tsv') if l.strip() and not l.startswith('#')]
for q in qs:
    for (a, b) in clean:
        for x, y in ((a, b), (b, a)):
            if re.search(r"\b" + re.escape(x) + r"\b", q): print(q, '|', x, '->', y)
