import Foundation
import TavoloSealed

/// The sealed deck's cost on one move (§14.8 steps 4–5): the mover's own share with its proof (a card played opens
/// to everyone), each receiver's check of it and the opening, and a draw's shares from the other members.
enum SealedMoveTimings {
    struct Figures {
        var playMoverUs: Double
        var playReceiverUs: Double
        var drawSharerUs: Double
        var drawCheckUs: Double
        var bytesPerMove: Int
    }

    static func run(members m: Int, cards n: Int, repeats: Int) throws -> Figures {
        let table = SealedContext(tableId: "0123abcd-7-1")
        let secrets = (0..<m).map { j in
            SealedMemberSecret(seed: [UInt8](repeating: UInt8(j + 1), count: 32), context: table, member: j)
        }
        let jointKey = RistrettoPoint.sum(secrets.map(\.publicKey))
        let cards = SealedCardPoints(count: n)
        var deck = SealedDeck.initial(cards)
        for s in secrets { deck = SealedShuffle.step(deck, secret: s, deal: 1, jointKey: jointKey) }
        let positions = (0..<repeats).map { $0 % n }
        // Everybody's shares, as they stand after the deal or draw gave each position to member 0's seat.
        let shares = positions.map { p in
            secrets.map { DecryptionShare.make(secret: $0, deal: 1, position: p, card: deck[p]) }
        }
        let (_, moverMs) = SealedDealTimings.clock {
            positions.map { DecryptionShare.make(secret: secrets[0], deal: 1, position: $0, card: deck[$0]) }
        }
        var failed = 0
        let (_, receiverMs) = SealedDealTimings.clock { () -> Int in
            var opened = 0
            for (i, p) in positions.enumerated() {
                let open = shares[i][0]
                guard
                    open.verifies(
                        context: table, deal: 1, position: p, member: 0, publicKey: secrets[0].publicKey, card: deck[p]),
                    DecryptionShare.open(deck[p], shares: shares[i].map(\.share), cards: cards) != nil
                else {
                    failed += 1
                    continue
                }
                opened += 1
            }
            return opened
        }
        guard failed == 0 else { throw SealedBenchFailure("\(failed) honest openings failed") }
        let (_, checkMs) = SealedDealTimings.clock { () -> Bool in
            positions.enumerated().allSatisfy { i, p in
                shares[i][1].verifies(
                    context: table, deal: 1, position: p, member: 1, publicKey: secrets[1].publicKey, card: deck[p])
            }
        }
        let share = shares[0][1]
        let shareFields: [String: Any] = [
            "position": 30, "share": SealedDealTimings.hex(share.share.bytes),
            "proof": SealedDealTimings.hex(share.proof.bytes),
        ]
        // A move's `open` goes to m − 1 members; each of the m − 1 non-drawers sends one share to m − 1 members.
        let openBytes = SealedDealTimings.messageBytes(["open": shareFields], members: m)
        let drawBytes =
            SealedDealTimings.messageBytes(
                ["type": "table.sealed-shares", "table": table.tableId, "deal": 1, "shares": [shareFields]], members: m)
            * (m - 1)
        let perMove = { (ms: Double) in ms * 1000 / Double(repeats) }
        return Figures(
            playMoverUs: perMove(moverMs), playReceiverUs: perMove(receiverMs), drawSharerUs: perMove(moverMs),
            drawCheckUs: perMove(checkMs) * Double(m - 1), bytesPerMove: openBytes + drawBytes)
    }
}
