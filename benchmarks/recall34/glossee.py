import lxml.html, re, sys, glob
Q = re.compile(r"\s*\([^)]*\)")
for folder in sys.argv[1:]:
    for path in glob.glob(folder + "/**/*.html", recursive=True):
        data = open(path, "rb").read()
        if b"See " not in data or b"<dl" not in data: continue
        root = lxml.html.fromstring(data)
        for dl in root.iter('dl'):
            items = [el for el in dl if isinstance(el.tag, str)]
            for i, el in enumerate(items):
                if el.tag != 'dt' or i + 1 >= len(items) or items[i+1].tag != 'dd': continue
                term = ' '.join(el.text_content().split())
                txt = ' '.join(items[i+1].text_content().split())
                m = re.match(r'^See ([^.;]+)\.?$', txt)
                if m:
                    print(f"{Q.sub('', term).lower()}\t{Q.sub('', m.group(1)).lower()}\t{path.rsplit('/',1)[-1]}")
