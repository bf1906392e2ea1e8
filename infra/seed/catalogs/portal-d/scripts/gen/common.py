import random, re, json, datetime as dt
from contests_data import C
from news_data1 import N1
from news_data2 import N2, N3
from news_data3 import N4
KST = dt.timezone(dt.timedelta(hours=9))
REF = dt.date(2026, 11, 22)
rng = random.Random(20261122)
def newid(prefix, used):
    while True:
        h = '%016x' % rng.getrandbits(64)
        if h not in used:
            used.add(h); return prefix + h
def iso(s):
    d = dt.datetime.strptime(s, "%Y-%m-%d %H:%M").replace(tzinfo=KST)
    return d.isoformat()
def status(start, end):
    s = dt.datetime.strptime(start, "%Y-%m-%d %H:%M").date()
    e = dt.datetime.strptime(end, "%Y-%m-%d %H:%M").date()
    if e < REF: return "ENDED"
    if s > REF: return "UPCOMING"
    return "ONGOING"
def lang(t):
    ko = bool(re.search('[가-힣]', t)); en = bool(re.search('[A-Za-z]{2,}', re.sub(r'Div\.\d|#\d+|CTF|NPU|AI|LLM|RAG|IT|RISC-V|EDA', '', t)))
    return 'mixed' if ko and en else ('ko' if ko else 'en')
NEWS = N1 + N2 + N3 + N4
