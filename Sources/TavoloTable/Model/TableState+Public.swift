import TavoloCore

extension TableMachine {
    /// What every seat sees alike, when the game hides nothing: no cards (no deal, §9.4) and every seat's observation
    /// the same but for naming the seat and its legal moves (Othello, the Fifteen race: a seat's slides follow from
    /// its board, which every seat sees). Nil for a game with hands: its observations are
    /// each seat's own, and one may not be shown to another node's user.
    var publicObservation: JSONValue? {
        guard let s = session, s.dealNumber == 0, s.currentDeal == nil, s.playerCount > 0 else { return nil }
        let all = (0..<s.playerCount).map { s.observation(for: $0) }
        func anonymous(_ v: JSONValue) -> JSONValue {
            guard case .object(var o) = v else { return v }
            o["seat"] = nil
            o["legal"] = nil
            return .object(o)
        }
        let first = anonymous(all[0])
        guard all.dropFirst().allSatisfy({ anonymous($0) == first }) else { return nil }
        // Seat 0's as it is: a client decodes the game's observation, which names a seat.
        return all[0]
    }
}
