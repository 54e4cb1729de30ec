import sqlite3, glob, re, sys
sys.path.insert(0, '.')
from tinyrag_desktop.kb.search import query_terms
db = glob.glob('/tmp/recall34/pg/*.db')[0]
conn = sqlite3.connect(db)
df = dict(conn.execute("select term, doc from chunks_fts_vocab"))
mem = sqlite3.connect(':memory:')
mem.execute("create virtual table t using fts5(x, tokenize='porter unicode61 remove_diacritics 2')")
mem.execute("create virtual table v using fts5vocab(t, row)")
def stem(w):
    mem.execute("delete from t"); mem.execute("insert into t values(?)", (w,))
    return [r[0] for r in mem.execute("select term from v")][0]
SUFFIXES = [("er", ""), ("est", ""), ("ier", "y"), ("iest", "y"), ("ly", ""), ("ily", "y"), ("ness", ""), ("ity", ""), ("ation", "e"), ("ation", ""), ("ment", ""), ("able", ""), ("ible", ""), ("al", ""), ("ful", ""), ("less", ""), ("ing", ""), ("ed", ""), ("s", ""), ("ity", "e"), ("ive", "e"), ("ive", ""), ("ize", ""), ("ise", "")]
def bases(w):
    out = set()
    for suf, rep in SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            b = w[:-len(suf)] + rep
            out.add(b)
            if len(b) > 3 and b[-1] == b[-2]: out.add(b[:-1])  # bigger -> big
    return out
for f in sys.argv[1:]:
    for line in open(f):
        if not line.strip() or line.startswith('#'): continue
        q = line.split('\t')[0]
        for w in query_terms(q):
            s = stem(w); d = df.get(s, 0)
            for b in bases(w):
                sb = stem(b)
                if sb != s and df.get(sb, 0) >= 1.5 * max(d, 1):
                    print(f"{q[:60]:60} {w}({s}:{d}) -> {b}({sb}:{df.get(sb)})")
