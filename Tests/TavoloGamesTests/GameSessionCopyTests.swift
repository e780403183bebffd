import TavoloCore
import TavoloGames
import XCTest

/// A session is a reference (a table mutates its game in place); `copy()` is the explicit copy that makes an
/// independent game at the same point, bots' random streams included (issue 28 item 5). Checked for every game and
/// player count of the catalog, with the random bot, whose stream a shared copy would betray at once.
final class GameSessionCopyTests: XCTestCase {
    func testACopyGoesOnLikeTheOriginalAndNeverMovesIt() throws {
        for entry in GameCatalog.standard.entries {
            for players in entry.playerCounts {
                let what = "\(entry.name)/\(players)"
                let original = try entry.session(players: players, seed: 42)
                // Some moves in, each seat's random bot has drawn from its stream.
                for _ in 0..<6 { try play(original) }
                let hashBefore = original.stateHash
                let copy = original.copy()
                XCTAssertEqual(copy.stateHash, hashBefore, what)
                // The copy plays on alone: the original does not move.
                var copied: [StateHash] = []
                for _ in 0..<6 {
                    try play(copy)
                    copied.append(copy.stateHash)
                }
                XCTAssertEqual(original.stateHash, hashBefore, "\(what): moving the copy moved the original")
                // The original then plays the same moves from the same point: the bots' streams were copied, not
                // shared (a shared stream would have been drawn on by the copy's moves).
                var played: [StateHash] = []
                for _ in 0..<6 {
                    try play(original)
                    played.append(original.stateHash)
                }
                XCTAssertEqual(played, copied, "\(what): the copy and the original went different ways")
            }
        }
    }

    /// One random-bot move of the seat to play (the first active seat of a race); nothing once the game is over.
    private func play(_ game: any GameSession) throws {
        guard game.outcome == nil else { return }
        if game.isSimultaneous {
            guard let seat = game.activeSeats.first else { return }
            try game.apply(try game.botMove(kind: "random", seat: seat), seat: seat)
        } else {
            try game.apply(try game.botMove(kind: "random"))
        }
    }
}
