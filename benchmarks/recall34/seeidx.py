"""Extract 'term (see target)' entries of back-of-book indexes (DocBook bookindex) from HTML files."""
import re, sys, glob
import lxml.html
SEE = re.compile(r"^(.*?)\s*\(see ([^)]*)\)$")
out = set()
for folder in sys.argv[1:]:
    for path in glob.glob(folder + "/**/*.html", recursive=True):
        data = open(path, "rb").read()
        if b"(see " not in data:
            continue
        root = lxml.html.fromstring(data)
        for dt in root.iter("dt"):
            # top-level entries only: a secondary entry ("of databases") sits inside a dd
            if any(a.tag == "dd" for a in dt.iterancestors()):
                continue
            text = " ".join(dt.text_content().split())
            m = SEE.match(text)
            if m and m.group(1) and not m.group(2).lower().startswith("also"):
                term = m.group(1).rstrip(",").strip()
                for target in m.group(2).split(","):
                    if target.strip():
                        out.add((term.lower(), target.strip().lower(), path.rsplit("/", 1)[-1]))
for t in sorted(out):
    print("\t".join(t))
