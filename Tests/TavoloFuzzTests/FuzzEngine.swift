import Foundation

/// A seeded, structured fuzzer small enough to read: no libFuzzer, no corpus on disk. Inputs come from a
/// target's seeds through byte and JSON-token mutations drawn from SplitMix64, so a run is a pure function of
/// (seed, count): a crash is reproduced by running the same seed again, and the crashing input is printed in hex.
struct FuzzRNG {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// 0 ..< n (n > 0); the small bias of a modulo does not matter here.
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }

    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    mutating func pick<T>(_ xs: [T]) -> T { xs[below(xs.count)] }
}

enum Mutator {
    /// Tokens that tend to matter to a JSON reader or to the rules behind it.
    static let tokens: [String] = [
        "{", "}", "[", "]", "\"", ",", ":", "\\", "\\u0000", "\\ud800", "null", "true", "-1", "0", "1e999",
        "18446744073709551616", "-9223372036854775809", "1.5", "\"\"", "[[[[[[[[[[[[[[[[[[", "{\"a\":", "\u{1B}[2J",
        "\u{FEFF}", "table.move", "table.offer", "table.stop", "\"type\"", "\"table\"", "\"seat\"", "\"number\"",
    ]
    static let interesting: [UInt8] = [0, 1, 0x7F, 0x80, 0xC0, 0xED, 0xF4, 0xFF, 0x22, 0x5B, 0x7B, 0x5C, 0x0A, 0x2C]

    static func mutate(_ input: [UInt8], _ rng: inout FuzzRNG, seeds: [[UInt8]]) -> [UInt8] {
        var b = input
        for _ in 0...rng.below(4) {
            switch rng.below(9) {
            case 0 where !b.isEmpty:  // flip a bit
                let i = rng.below(b.count)
                b[i] ^= UInt8(1 << rng.below(8))
            case 1 where !b.isEmpty:  // set an interesting byte
                b[rng.below(b.count)] = rng.pick(interesting)
            case 2 where !b.isEmpty:  // delete a range
                let i = rng.below(b.count)
                b.removeSubrange(i..<min(b.count, i + 1 + rng.below(16)))
            case 3:  // insert a token
                b.insert(contentsOf: Array(rng.pick(tokens).utf8), at: rng.below(b.count + 1))
            case 4 where !b.isEmpty:  // duplicate a chunk
                let i = rng.below(b.count)
                let chunk = b[i..<min(b.count, i + 1 + rng.below(64))]
                b.insert(contentsOf: chunk, at: rng.below(b.count + 1))
            case 5 where !seeds.isEmpty:  // splice with another seed
                let other = rng.pick(seeds)
                let cut = rng.below(b.count + 1)
                let from = rng.below(other.count + 1)
                b = Array(b[..<cut]) + Array(other[from...])
            case 6 where !b.isEmpty:  // truncate
                b.removeLast(rng.below(b.count) + 1)
            case 7:  // replace a number with another
                if let i = b.indices.randomDigit(in: b, &rng) {
                    var j = i
                    while j < b.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[j]) { j += 1 }
                    let n = rng.pick([
                        "-1", "0", "1", "2", "63", "64", "255", "256", "4294967296", "99999999999999999999",
                    ])
                    b.replaceSubrange(i..<j, with: Array(n.utf8))
                }
            default:  // random byte anywhere
                b.insert(UInt8(truncatingIfNeeded: rng.next()), at: rng.below(b.count + 1))
            }
        }
        return b
    }
}

extension Range<Int> {
    fileprivate func randomDigit(in b: [UInt8], _ rng: inout FuzzRNG) -> Int? {
        guard !isEmpty else { return nil }
        let start = rng.below(count)
        for k in 0..<count {
            let i = (start + k) % count
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[i]) { return i }
        }
        return nil
    }
}

/// The input being tried, kept where a signal handler can reach it: on a crash it is printed in hex to stderr
/// before the process dies, so any crash becomes a regression test.
enum CrashReporter {
    static let capacity = 1 << 20
    nonisolated(unsafe) static let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    nonisolated(unsafe) static var length = 0
    nonisolated(unsafe) static var target: StaticString = "none"
    nonisolated(unsafe) static var installed = false

    static func install() {
        guard !installed else { return }
        installed = true
        for sig in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE] {
            signal(sig) { sig in
                CrashReporter.report()
                signal(sig, SIG_DFL)
                raise(sig)
            }
        }
    }

    nonisolated(unsafe) static let hexBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * capacity + 1)

    static func hold(_ input: [UInt8], target: StaticString) {
        self.target = target
        length = Swift.min(input.count, capacity)
        for i in 0..<length { buffer[i] = input[i] }
    }

    /// Only write(2) and buffers allocated beforehand: what a signal handler may do.
    static func report() {
        let prefix: StaticString = "\nfuzz: CRASH in target "
        _ = write(2, prefix.utf8Start, prefix.utf8CodeUnitCount)
        _ = write(2, target.utf8Start, target.utf8CodeUnitCount)
        let middle: StaticString = " on input (hex): "
        _ = write(2, middle.utf8Start, middle.utf8CodeUnitCount)
        let digits: StaticString = "0123456789abcdef"
        for i in 0..<length {
            hexBuffer[2 * i] = digits.utf8Start[Int(buffer[i] >> 4)]
            hexBuffer[2 * i + 1] = digits.utf8Start[Int(buffer[i] & 15)]
        }
        hexBuffer[2 * length] = 0x0A
        _ = write(2, hexBuffer, 2 * length + 1)
    }
}
