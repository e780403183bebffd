import Foundation
import TavoloCore
import TavoloGames
import TavoloTerminal

/// Snapshots built from real engine states, as the play command builds them from the node's answers.
enum Fixtures {
    static func json<T: Encodable>(_ v: T) -> [UInt8] {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return (try? Array(e.encode(v))) ?? []
    }

    /// Seats owned by `alice` (seat 0, a person; other seats of hers are bots) and `bob`.
    static func seats(_ n: Int, mine: Set<Int> = [0], bots: [Int: String] = [:]) -> [TableSnapshot.Seat] {
        (0..<n).map { i in
            TableSnapshot.Seat(
                seat: i, ownerName: mine.contains(i) ? "alice" : "bob", bot: bots[i], isMine: mine.contains(i))
        }
    }

    static func snapshot<S: GameState>(
        _ state: S, mySeat: Int? = 0, seats: [TableSnapshot.Seat]? = nil, recent: [String] = []
    ) -> TableSnapshot {
        let finished = state.outcome != nil
        let viewer = mySeat ?? 0
        return TableSnapshot(
            tableID: "t1", game: S.gameName, phase: finished ? .finished : .playing,
            seats: seats ?? Self.seats(state.playerCount), turn: state.turn.seat, moveNumber: state.moveNumber,
            mySeat: mySeat, observation: json(state.observation(for: viewer)),
            legalMoves: state.turn.seat == mySeat ? state.legalMoves().map(json) : [], recentMoves: recent,
            winners: state.outcome?.winners, scores: state.outcome?.scores)
    }

    static func text(_ s: TableSnapshot, _ ui: PlayController = PlayController(), width: Int = 100, height: Int = 40)
        -> String
    {
        ScreenRenderer.plainText(TableScreen(width: width, height: height).lines(s, ui))
    }
}
