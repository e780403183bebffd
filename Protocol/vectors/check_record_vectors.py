#!/usr/bin/env python3
"""Checks Protocol/vectors/records.json against PROTOCOL.md section 11 without Tavolo's code: record ids
(SHA-256 of the body's bytes), canonical JSON of bodies and messages (sorted keys, no whitespace, '/' not
escaped, UTF-8), the takeovers' shape and heirs, the 256 bucket digests, and the limits a receiver checks on each
message. Replaying the moves (what decides accept or refuse for the records whose id is right) needs a game engine
and is not done here."""
import hashlib, json, os, re, sys

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "records.json")
v = json.load(open(path, encoding="utf-8"))
canon = lambda x: json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
hex64 = re.compile(r"^[0-9a-f]{64}$")
fails = 0

def check(ok, what):
    global fails
    if not ok:
        fails += 1
        print("FAIL:", what)

for r in v["records"]:
    body = r["body"]
    check(canon(json.loads(body)) == body, r["name"] + ": body is not canonical JSON")
    right = hashlib.sha256(body.encode("utf-8")).hexdigest() == r["id"]
    check(right == (r["expect"] != "id is not the SHA-256 of the body"), r["name"] + ": id")
    b = json.loads(body)
    check(b["version"] == 1 and len(b["seats"]) == b["players"], r["name"] + ": version, seats")
    check(re.fullmatch(r"[0-9a-f]{16}", b["jointSeed"]) is not None, r["name"] + ": jointSeed")
    check(len(body.encode()) <= 32768, r["name"] + ": body size")
    if "takeovers" in b:
        # Section 11.1: never empty when present; the last takeover of each seat names the seat's owner at the end.
        t = b["takeovers"]
        check(1 <= len(t) <= 16, r["name"] + ": takeovers count")
        last = {}
        for x in t:
            check(set(x) == {"member", "name", "seats", "heir", "bot", "number", "appliedAt", "forfeit"},
                  r["name"] + ": takeover members")
            check(0 <= x["appliedAt"] <= len(b["moves"]) and x["number"] >= 0, r["name"] + ": takeover move numbers")
            for seat in x["seats"]:
                last[seat] = x
        consistent = all(b["seats"][s]["node"] == x["heir"] and b["seats"][s].get("bot") == x["bot"]
                         for s, x in last.items())
        check(consistent == (not r["expect"].startswith("takeover: seat")), r["name"] + ": takeover heirs")

def digests(ids):
    buckets = [None] * 256
    for i in sorted(ids):
        k = int(i[:2], 16)
        buckets[k] = (buckets[k] or hashlib.sha256())
        buckets[k].update(i.encode("ascii"))
    return [h.hexdigest()[:16] if h else "" for h in buckets]

check(digests(v["summary"]["ids"]) == v["summary"]["buckets"], "summary buckets")

for m in v["messages"]:
    j = json.loads(m["json"])
    check(canon(j) == m["json"], m["name"] + ": not canonical")
    check(len(m["json"].encode()) <= 131072, m["name"] + ": over 128 KiB")
    t = j["type"]
    if t == "records.summary":
        check(len(j["buckets"]) == 256 and all(b == "" or re.fullmatch(r"[0-9a-f]{16}", b) for b in j["buckets"]), "summary")
    elif t == "records.ids":
        check(0 <= j["bucket"] < 256 and len(j["ids"]) <= 1024, "ids bounds")
        check(all(hex64.match(i) and int(i[:2], 16) == j["bucket"] for i in j["ids"]), "ids in bucket")
    elif t == "records.data":
        check(len(j["records"]) <= 32, "data: at most 32 records")
        for r in j["records"]:
            check(hashlib.sha256(r["body"].encode()).hexdigest() == r["id"], "data: id of body")
    elif t == "records.ack":
        check(j["accepted"] >= 0 and j["refused"] >= 0, "ack")
    else:
        check(False, "unknown type " + t)

print("records vectors: %d records, %d messages, %s" % (len(v["records"]), len(v["messages"]), "ok" if not fails else "%d failures" % fails))
sys.exit(1 if fails else 0)
