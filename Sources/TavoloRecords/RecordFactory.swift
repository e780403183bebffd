import Foundation
import TavoloCore
import TavoloRecordFormat

/// Records of games played by bots with no table and no network: for tests and `tavolo-bench records`. The
/// record is the one a table of made-up nodes would have written (same body rules as `RecordedGame.body(of:)`).
public enum RecordFactory {
    /// Plays `game` for `players` from `seed` with bots of `bot` kind at every seat.
    public static func playout(
        catalog: GameCatalog, game: String, players: Int, seed: UInt64, bot: String, names: [String]? = nil,
        table: String? = nil, endedAt: Int64 = 1_700_000_000_000
    ) throws -> RecordedGame {
        guard let entry = catalog[game] else { throw MoveError(.illegal, "unknown game \(game)") }
        let session = try entry.session(players: players, seed: seed)
        var moves: [RecordBody.Move] = []
        while let seat = session.turn.seat {
            let move = try session.botMove(kind: bot)
            moves.append(.init(seat: seat, move: move.json))
            try session.apply(move)
        }
        let outcome = session.outcome
        let seats = (0..<players).map { s in
            RecordBody.Seat(
                seat: s, node: String(format: "%032x", s + 1), name: names?[s] ?? "bench\(s)", bot: bot)
        }
        let body = RecordBody(
            version: RecordBody.currentVersion, table: table ?? "bench-\(seed)", game: game, players: players,
            options: [:], seats: seats, jointSeed: RecordBody.hex(seed), moves: moves, outcome: .finished,
            stopCode: nil, winners: outcome?.winners ?? [], scores: outcome?.scores ?? [],
            finalHash: session.stateHash.hex)
        return RecordedGame(body: try CanonicalJSON.encode(body), startedAt: endedAt - 60_000, endedAt: endedAt)
    }
}
