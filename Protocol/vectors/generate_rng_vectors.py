#!/usr/bin/env python3
"""Independent reference implementation of PROTOCOL.md section 1 (SplitMix64, xoshiro256**,
bounded integers, Fisher-Yates). Writes rng.json and shuffle.json; the Swift tests check the
Swift implementation against these files, so the two implementations cross-check each other."""
import json, os

M = (1 << 64) - 1

def splitmix64(state):
    while True:
        state = (state + 0x9E3779B97F4A7C15) & M
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
        yield z ^ (z >> 31)

def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M

class Xoshiro:
    def __init__(self, seed):
        sm = splitmix64(seed)
        self.s = [next(sm) for _ in range(4)]

    @classmethod
    def stream(cls, seed, stream):
        return cls(next(splitmix64(seed ^ ((stream * 0x9E3779B97F4A7C15) & M))))

    def next(self):
        s = self.s
        result = (rotl((s[1] * 5) & M, 7) * 9) & M
        t = (s[1] << 17) & M
        s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def bounded(self, n):
        m = self.next() * n
        low = m & M
        if low < n:
            threshold = ((1 << 64) - n) % n
            while low < threshold:
                m = self.next() * n
                low = m & M
        return m >> 64

    def shuffle(self, items):
        for i in range(len(items) - 1, 0, -1):
            j = self.bounded(i + 1)
            items[i], items[j] = items[j], items[i]
        return items

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    seeds = [0, 1, 7, 42, 0xFFFFFFFFFFFFFFFF, 0x0123456789ABCDEF]
    rng = {"description": "first outputs of TavoloRNG(seed) (xoshiro256** seeded by SplitMix64), as decimal strings; "
                          "bounded: first 10 values of bounded(n), each list from a fresh TavoloRNG(seed); stream: first 5 outputs of TavoloRNG(seed, stream)",
           "cases": []}
    for seed in seeds:
        r = Xoshiro(seed)
        outputs = [str(r.next()) for _ in range(10)]
        b = {}
        for n in [1, 2, 6, 54, 1000, 0x8000000000000001]:
            rb = Xoshiro(seed)
            b[str(n)] = [str(rb.bounded(n)) for _ in range(10)]
        st = Xoshiro.stream(seed, 0x100 + 3)
        rng["cases"].append({"seed": str(seed), "next": outputs, "bounded": b,
                             "stream": {"stream": str(0x100 + 3), "next": [str(st.next()) for _ in range(5)]}})
    shuffle = {"description": "Fisher-Yates shuffle of the list 0..53 by TavoloRNG(seed); "
                              "the result lists the card indices in their new order", "cases": []}
    for seed in seeds:
        shuffle["cases"].append({"seed": str(seed), "deck": Xoshiro(seed).shuffle(list(range(54)))})
    with open(os.path.join(here, "rng.json"), "w") as f:
        json.dump(rng, f, indent=1)
    with open(os.path.join(here, "shuffle.json"), "w") as f:
        json.dump(shuffle, f, indent=1)


if __name__ == "__main__":
    main()
