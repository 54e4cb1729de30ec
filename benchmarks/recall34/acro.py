import re, sqlite3, sys, glob
from collections import Counter
P3 = re.compile(r"\b((?:[A-Z][a-z]+[ -]){1,4}[A-Z][a-z]+)\s+\(([A-Z]{2,6})\)")
P4 = re.compile(r"\b([A-Za-z][\w-]*(?:\s[A-Za-z][\w-]*){0,2})\s+\((?:also called|also known as|sometimes called|often called)\s+[“\"]?([A-Za-z][\w -]{0,40}?)[”\"]?\)")
P5 = re.compile(r"\b([A-Za-z][\w-]*(?:\s[A-Za-z][\w-]*){0,1}),\s+(?:also called|also known as|sometimes called|often called|otherwise known as)\s+[“\"]?([A-Za-z][\w-]*(?:\s[A-Za-z][\w-]*){0,1})[”\"]?[.,;)]")
seen = set()
for db in sys.argv[1:]:
    conn = sqlite3.connect(glob.glob(db + '/*.db')[0])
    for (t,) in conn.execute("select text from chunks"):
        for a, b in P3.findall(t):
            if "".join(w[0] for w in re.split(r"[ -]", a)).upper() == b:
                seen.add((b.lower(), a.lower(), 'acro'))
        if 'acro' in sys.argv[0]: pass
        for a, b in P4.findall(t) + P5.findall(t):
            seen.add((b.lower(), a.lower(), 'aka'))
for s in sorted(seen): print('\t'.join(s))
