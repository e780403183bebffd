import Foundation
import TavoloCore
import TavoloProtocol
import TavoloSealed
import TavoloTable

/// A node (`a`) at a sealed Briscola table with `b` (PROTOCOL.md §14), its deck final and play begun, fed sealed
/// messages as if from `b` (a member) or `c` (an outsider): shuffles, shares, openings and audits, true ones and
/// mutated ones, with timers and its own moves in between. A lie may stop the table; nothing may take the node down.
struct SealedFuzzNode {
    var directory: TableDirectory
    let table: TableID
    var seeds: [[UInt8]] = []

    init() throws {
        let (a, b, c) = (TableFuzzNode.a, TableFuzzNode.b, TableFuzzNode.c)
        var d = TableDirectory(
            context: TableContext(me: a, myName: "a", catalog: .standard), nonces: .reproducible(seed: 2, nodeIndex: 0))
        _ = d.peerConnected(b, name: "b")
        _ = d.peerConnected(c, name: "c")
        table = try d.host(game: "briscola", players: 2, sealed: true).0.get().id
        _ = try d.request(table, .join(seat: 0, bot: nil)).0.get()
        _ = d.received(.seatRequest(table: table, seat: 1, bot: nil), from: b)
        _ = try d.request(table, .start).0.get()
        let id = table.rawValue
        let secret = SealedMemberSecret(
            seed: [UInt8](repeating: 9, count: 32), context: SealedContext(tableId: id), member: 1)
        let key = SealedMessage.key(table: id, key: secret.publicKey, proof: secret.keyProof())
        let nonce = [UInt8](repeating: 7, count: JointSeed.nonceLength)
        _ = d.received(.sealed(table: table, key), from: b)
        _ = d.received(.commit(table: table, commitment: JointSeed.commitment(for: nonce)), from: b)
        _ = d.received(.reveal(table: table, nonce: nonce.hexString), from: b)
        guard let game = d.tables[table]?.session as? SealedTableGame, var deal = game.sealed.current?.deal else {
            throw CocoaError(.featureUnsupported)
        }
        // b's step on a's deck, then b's shares of every position but its own: the deck is final at a.
        let (input, deck) = deal.shuffle(with: secret)
        let shuffle = SealedMessage.shuffle(table: id, deal: 1, input: input, deck: SealedDeck.encode(deck))
        try deal.acceptShuffle(from: 1, input: input, deck: SealedDeck.encode(deck))
        let theirs = Set(game.sealed.current?.holders.filter { $0.value == 1 }.map(\.key) ?? [])
        let shares = deal.shares(of: secret, positions: (0..<deal.cards.count).filter { !theirs.contains($0) })
            .map { SealedMessage.PositionShare(position: $0.position, share: $0.share) }
        let share = SealedMessage.shares(table: id, deal: 1, shares: shares)
        _ = d.received(.sealed(table: table, shuffle), from: b)
        _ = d.received(.sealed(table: table, share), from: b)
        directory = d
        let open = deal.shares(of: secret, positions: [theirs.min() ?? 0]).first.map {
            SealedMessage.open(table: id, deal: 1, number: 0, position: $0.position, share: $0.share)
        }
        let audit = SealedMessage.audit(table: id, secrets: [.init(member: 1, secret: secret.seed)])
        seeds = try ([key, shuffle, share, audit] + (open.map { [$0] } ?? [])).map {
            try CanonicalJSON.encode(TableMessage.sealed(table: table, $0))
        }
    }

    /// Decodes like `TableManager.received` and feeds the directory; now and then a timer, a peer or a move of a.
    mutating func feed(_ bytes: [UInt8], _ rng: inout FuzzRNG) -> Bool {
        switch rng.below(40) {
        case 0: _ = directory.peerLost(rng.pick([TableFuzzNode.b, TableFuzzNode.c]))
        case 1: _ = directory.peerConnected(rng.pick([TableFuzzNode.b, TableFuzzNode.c]), name: "b")
        case 2: _ = directory.timerFired(rng.pick([.results(table), .botMove(table, number: 0), .expire(table)]))
        case 3:
            if let legal = directory.tables[table]?.session?.legalMoves(), !legal.isEmpty {
                _ = directory.request(table, .move(rng.pick(legal).json))
            }
        default: break
        }
        guard JSONSyntax.isWellFormed(bytes), let m = try? CanonicalJSON.decode(TableMessage.self, bytes) else {
            return false
        }
        _ = directory.received(m, from: rng.pick([TableFuzzNode.b, TableFuzzNode.b, TableFuzzNode.c]))
        return true
    }
}
