import TavoloCore

// The canonical encoding (Protocol/games/briscola.md): one layout for 2, 3 and 4 players (3 writes its 39 cards),
// another for Briscola chiamata, which has an auction and no pile.

extension BriscolaState {
    public func writeCanonical(into w: inout CanonicalWriter) {
        if let c = chiamata { return writeChiamata(c, into: &w) }
        w.u8(UInt8(playerCount))
        w.u64(seed)
        for c in dealtDeck { w.u8(c.id) }
        w.u8(UInt8(dealer))
        w.u8(trumpCard?.id ?? 0xFF)
        w.u32(UInt32(moveNumber))
        w.u8(isOver ? 0xFF : UInt8(current))
        w.u8(UInt8(leader))
        w.u8(UInt8(drawn))
        w.u8(trumpDrawnBy.map(UInt8.init) ?? 0xFF)
        writeHandsAndCaptured(into: &w)
        w.count(table.count)
        for c in table { w.u8(c.id) }
    }

    func writeHandsAndCaptured(into w: inout CanonicalWriter) {
        for seat in 0..<playerCount {
            w.u64(hands[seat].bits)
            w.u64(captured[seat].bits)
        }
    }

    func writeChiamata(_ c: ChiamataPart, into w: inout CanonicalWriter) {
        w.u8(UInt8(playerCount))
        w.u64(seed)
        for card in dealtDeck { w.u8(card.id) }
        w.u8(UInt8(dealer))
        w.u32(UInt32(moveNumber))
        w.u8(isOver ? 0xFF : UInt8(current))
        w.u8(c.phase.code)
        w.count(c.auction.count)
        for e in c.auction {
            w.u8(UInt8(e.seat))
            w.u8(e.chiamataBid.map { UInt8($0.level) } ?? 0xFF)
        }
        w.u8(c.calledCard?.id ?? 0xFF)
        w.u8(c.partner.map(UInt8.init) ?? 0xFF)
        w.u8(c.partnerRevealed ? 1 : 0)
        w.u8(UInt8(leader))
        writeHandsAndCaptured(into: &w)
        w.count(c.tricks.count)
        for t in c.tricks {
            w.u8(UInt8(t.leader))
            for card in t.cards { w.u8(card.id) }
        }
        w.count(table.count)
        for card in table { w.u8(card.id) }
    }
}
