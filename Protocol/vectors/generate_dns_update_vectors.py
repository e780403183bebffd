#!/usr/bin/python3
"""Writes Protocol/vectors/dns-update.json: the DNS UPDATE messages (RFC 2136) of PROTOCOL.md §6.1 for one node,
encoded by dnspython (Debian: python3-dnspython), independently of Tavolo's own encoder. Names are written
uncompressed, as Tavolo writes them. Run with /usr/bin/python3 (the system's, where python3-dnspython lives)."""
import json, os
import dns.edns, dns.message, dns.name, dns.opcode, dns.rdata, dns.rdataclass, dns.rdatatype, dns.renderer, dns.rrset

ZONE = dns.name.from_text("tavolo.test.")
# The instance label holds a dot and a space: one label, never split (RFC 6763 §4.3).
INSTANCE = dns.name.Name([b"ann's table. 2"]).concatenate(dns.name.from_text("_tavolo._tcp.tavolo.test."))
TYPE = dns.name.from_text("_tavolo._tcp.tavolo.test.")
HOST = dns.name.from_text("tavolo-00112233445566778899.tavolo.test.")
TXT = [b"c=0011223344556677", b"id=00112233445566778899aabbccddeeff", b"u=7879", b"v=3"]
TTL = 120


def rrset(name, rdclass, rdtype, ttl, *texts):
    # Class NONE (delete this record, §2.5.4): IN data, written with class NONE.
    r = dns.rrset.RRset(name, dns.rdataclass.IN, rdtype,
                        deleting=None if rdclass == dns.rdataclass.IN else rdclass)
    r.update_ttl(ttl)
    for t in texts:
        r.add(dns.rdata.from_text(dns.rdataclass.IN, rdtype, t))
    return r


def empty(name, rdclass, rdtype):
    # A deletion: no rdata (RFC 2136 §2.5.2-3); dnspython renders an empty rrset with the deleting flag.
    r = dns.rrset.RRset(name, rdclass, rdtype, deleting=rdclass)
    return r


def render(msg_id, updates, lease=None):
    r = dns.renderer.Renderer(msg_id, dns.opcode.to_flags(dns.opcode.UPDATE), 65535)
    r.compress = None  # Tavolo writes names whole
    r.add_question(ZONE, dns.rdatatype.SOA, dns.rdataclass.IN)
    for u in updates:
        r.add_rrset(dns.renderer.AUTHORITY, u)
    if lease is not None:
        r.add_edns(0, 0, 1232, [dns.edns.GenericOption(2, lease.to_bytes(4, "big"))])
    r.write_header()
    return r.get_wire().hex()


txt_text = " ".join('"%s"' % t.decode() for t in TXT)
ptr = lambda rdclass, ttl: rrset(TYPE, rdclass, dns.rdatatype.PTR, ttl, INSTANCE.to_text())
registration = render(0x1234, [
    empty(INSTANCE, dns.rdataclass.ANY, dns.rdatatype.ANY),
    empty(HOST, dns.rdataclass.ANY, dns.rdatatype.ANY),
    ptr(dns.rdataclass.IN, TTL),
    rrset(INSTANCE, dns.rdataclass.IN, dns.rdatatype.SRV, TTL, "0 0 7878 " + HOST.to_text()),
    rrset(INSTANCE, dns.rdataclass.IN, dns.rdatatype.TXT, TTL, txt_text),
    rrset(HOST, dns.rdataclass.IN, dns.rdatatype.A, TTL, "10.77.1.3"),
], lease=7200)
withdrawal = render(0xbeef, [
    ptr(dns.rdataclass.NONE, 0),
    empty(INSTANCE, dns.rdataclass.ANY, dns.rdatatype.ANY),
    empty(HOST, dns.rdataclass.ANY, dns.rdatatype.ANY),
])
out = {
    "about": "PROTOCOL.md §6.1: a node's DNS UPDATE messages, by dnspython (generate_dns_update_vectors.py)",
    "service": {"instance": "ann's table. 2", "domain": "tavolo.test", "host": "tavolo-00112233445566778899",
                "port": 7878, "address": "10.77.1.3", "ttl": TTL,
                "txt": {"c": "0011223344556677", "id": "00112233445566778899aabbccddeeff", "u": "7879", "v": "3"}},
    "registration": {"id": 0x1234, "lease": 7200, "hex": registration},
    "withdrawal": {"id": 0xbeef, "hex": withdrawal},
}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "dns-update.json"), "w") as f:
    json.dump(out, f, indent=2, sort_keys=True)
    f.write("\n")
