import Foundation
import TavoloSealed

/// `scripts/bench sealed` (`tavolo-bench --profile sealed`): the crypto cost and the message bytes of a sealed deal
/// (PROTOCOL.md §14.8 steps 1–3) and of a move, every member's work done in this one process. The wall time is the
/// critical path as if each member ran on its own core: keys in parallel, then the shuffles one after another, then
/// shares made in parallel, then each member checking what it received. Network latency is not in it.
enum SealedDealTimings {
    struct Figures {
        var members: Int
        var cards: Int
        var handPositions: Int
        var wallMs: Double
        var cpuMs: Double
        var bytes: Int
        var shuffleStepMs: Double
    }

    static func clock<T>(_ body: () -> T) -> (T, Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let value = body()
        return (value, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }

    /// JSON bytes of one message as §14.7 writes it, sent to each of the other `members − 1`.
    static func messageBytes(_ fields: [String: Any], members: Int) -> Int {
        let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data()
        return (data.count + 4) * (members - 1)  // + the service byte and the frame's share of the header
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// One sealed deal of `cards` cards among `members` members, `hand` cards dealt to each (one seat per member).
    static func deal(members m: Int, cards n: Int, hand: Int) throws -> Figures {
        let table = SealedContext(tableId: "0123abcd-7-1")
        let secrets = (0..<m).map { j in
            SealedMemberSecret(
                seed: (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ j) }, context: table, member: j)
        }
        var cpu = 0.0
        var bytes = 0
        // Keys: each member makes its proof and checks the others' (in parallel across members).
        let (proofs, makeMs) = clock { secrets.map { $0.keyProof() } }
        let (_, checkMs) = clock {
            SealedJointKey.combine(keys: secrets.map(\.publicKey), proofs: proofs, context: table)
        }
        let jointKey = RistrettoPoint.sum(secrets.map(\.publicKey))
        cpu += makeMs + checkMs * Double(m)
        var wall = makeMs / Double(m) + checkMs
        for (j, proof) in proofs.enumerated() {
            bytes += messageBytes(
                [
                    "type": "table.sealed-key", "table": table.tableId, "key": hex(secrets[j].publicKey.bytes),
                    "proof": hex(proof.bytes),
                ],
                members: m)
        }
        // Shuffles: one after another.
        var deck = SealedDeck.initial(SealedCardPoints(count: n))
        var shuffleMs = 0.0
        for secret in secrets {
            let input = SealedDeck.hash(deck)
            let (out, ms) = clock { SealedShuffle.step(deck, secret: secret, deal: 1, jointKey: jointKey) }
            let (_, decodeMs) = clock { SealedDeck.decode(SealedDeck.encode(out), count: n) }
            deck = out
            shuffleMs += ms
            wall += ms + decodeMs
            cpu += ms + decodeMs * Double(m - 1)
            bytes += messageBytes(
                [
                    "type": "table.sealed-shuffle", "table": table.tableId, "deal": 1, "input": hex(input),
                    "deck": hex(SealedDeck.encode(deck)),
                ],
                members: m)
        }
        let opening = try openHands(secrets, deck: deck, hand: hand, cards: SealedCardPoints(count: n))
        return Figures(
            members: m, cards: n, handPositions: hand * m, wallMs: wall + opening.wallMs, cpuMs: cpu + opening.cpuMs,
            bytes: bytes + opening.bytes, shuffleStepMs: shuffleMs / Double(m))
    }

    /// Step 3: member `j` holds positions `j, j + m, …` (`hand` of them); every member shares every other member's
    /// positions, and each member checks the shares of its own cards (the only ones it relies on, §14.6) and opens
    /// them.
    static func openHands(
        _ secrets: [SealedMemberSecret], deck: [SealedCiphertext], hand: Int, cards: SealedCardPoints
    ) throws -> (wallMs: Double, cpuMs: Double, bytes: Int) {
        let m = secrets.count
        let positions = Array(0..<(hand * m))
        var made: [[Int: DecryptionShare]] = []
        var makeMs: [Double] = []
        var bytes = 0
        for secret in secrets {
            let mine = positions.filter { $0 % m != secret.member }
            let (shares, ms) = clock {
                Dictionary(
                    uniqueKeysWithValues: mine.map {
                        ($0, DecryptionShare.make(secret: secret, deal: 1, position: $0, card: deck[$0]))
                    })
            }
            made.append(shares)
            makeMs.append(ms)
            let list = mine.compactMap { p in
                shares[p].map { ["position": p, "share": hex($0.share.bytes), "proof": hex($0.proof.bytes)] }
            }
            bytes += messageBytes(
                ["type": "table.sealed-shares", "table": secrets[0].context.tableId, "deal": 1, "shares": list],
                members: m)
        }
        var checkMs: [Double] = []
        var failed = 0
        for me in secrets {
            let (_, ms) = clock { () -> Int in
                var opened = 0
                for (j, shares) in made.enumerated() where j != me.member {
                    for (p, s) in shares where p % m == me.member {
                        guard
                            s.verifies(
                                context: me.context, deal: 1, position: p, member: j, publicKey: secrets[j].publicKey,
                                card: deck[p])
                        else {
                            failed += 1
                            continue
                        }
                    }
                }
                for p in positions where p % m == me.member {
                    let own = DecryptionShare.make(secret: me, deal: 1, position: p, card: deck[p]).share
                    let others = made.enumerated().compactMap { $0.offset == me.member ? nil : $0.element[p]?.share }
                    if DecryptionShare.open(deck[p], shares: others + [own], cards: cards) != nil { opened += 1 }
                }
                failed += hand - opened
                return opened
            }
            checkMs.append(ms)
        }
        guard failed == 0 else { throw SealedBenchFailure("\(failed) honest shares or cards did not check or open") }
        return ((makeMs.max() ?? 0) + (checkMs.max() ?? 0), makeMs.reduce(0, +) + checkMs.reduce(0, +), bytes)
    }
}
