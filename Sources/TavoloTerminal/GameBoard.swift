import Foundation
import TavoloCore
import TavoloGames

/// A legal move as the screen offers it.
public struct MoveOption: Equatable, Sendable {
    /// The move as the node takes it.
    public var json: [UInt8]
    /// What a person types for it: `R3`, `9B`, `d3`, `pass`.
    public var key: String
    /// How the list shows it: `R3`, `flee, open R3`, `Asso di Coppe (1C)`.
    public var label: String

    public init(json: [UInt8], key: String, label: String) {
        self.json = json
        self.key = key
        self.label = label
    }
}

/// One game's drawing of a seat's observation.
public protocol GameBoard {
    /// A few words for the title line: `round 2 of 3`.
    var headline: String { get }
    /// The position, with the legal moves in `options` marked and `selected` highlighted.
    func lines(options: [MoveOption], selected: Int?) -> [Line]
    /// Facts about one seat for the seats list: `hand 5 · ghosts 2`.
    func seatDetail(_ seat: Int, of snapshot: TableSnapshot) -> String
}

/// The boards and move options of the games this build knows.
public enum GameBoards {
    /// The board for `snapshot`'s observation; nil if there is none or it does not decode.
    public static func board(for snapshot: TableSnapshot) -> GameBoard? {
        guard let json = snapshot.observation else { return nil }
        let data = Data(json)
        switch snapshot.game {
        case SpiritsState.gameName:
            let played = snapshot.playedMoves.compactMap { try? JSONDecoder().decode(SpiritsMove.self, from: Data($0)) }
            return (try? JSONDecoder().decode(SpiritsObservation.self, from: data)).map {
                SpiritsBoard($0, played: played.map(\.card))
            }
        case BriscolaState.gameName:
            return (try? JSONDecoder().decode(BriscolaObservation.self, from: data)).map(BriscolaBoard.init)
        case OthelloState.gameName:
            return (try? JSONDecoder().decode(OthelloObservation.self, from: data)).map(OthelloBoard.init)
        case FifteenState4.gameName, FifteenState5.gameName, FifteenState6.gameName:
            return (try? JSONDecoder().decode(FifteenObservation.self, from: data)).map {
                FifteenRaceBoard(obs: $0, live: snapshot.live, mySeat: snapshot.mySeat, elapsedMs: snapshot.elapsedMs)
            }
        default: return nil
        }
    }

    /// The legal moves as options, in the node's order; a move this build cannot read is shown as its JSON.
    public static func options(game: String, legal: [[UInt8]]) -> [MoveOption] {
        let options = allOptions(game: game, legal: legal)
        // A Briscola chiamata auction has up to 69 bids: the pass first, so it is never off the edge of the line.
        guard game == BriscolaState.gameName else { return options }
        return options.filter { $0.key == "pass" } + options.filter { $0.key != "pass" }
    }

    static func allOptions(game: String, legal: [[UInt8]]) -> [MoveOption] {
        legal.map { json in
            let data = Data(json)
            switch game {
            case SpiritsState.gameName:
                if let m = try? JSONDecoder().decode(SpiritsMove.self, from: data) {
                    return MoveOption(
                        json: json, key: m.card.description,
                        label: m.isFlee ? "flee, open \(m.card)" : m.card.description)
                }
            case BriscolaState.gameName:
                if let m = try? JSONDecoder().decode(BriscolaMove.self, from: data) {
                    return BriscolaBoard.option(m, json: json)
                }
            case OthelloState.gameName:
                if let m = try? JSONDecoder().decode(OthelloMove.self, from: data) {
                    return MoveOption(json: json, key: m.description, label: m.description)
                }
            case FifteenState4.gameName, FifteenState5.gameName, FifteenState6.gameName:
                if let m = try? JSONDecoder().decode(FifteenMove.self, from: data) {
                    return MoveOption(json: json, key: m.description, label: m.description)
                }
            default: break
            }
            let text = String(decoding: json, as: UTF8.self)
            return MoveOption(json: json, key: text, label: text)
        }
    }

    /// The option `text` names: its number in the list, what one types for it, its label, or its JSON.
    public static func match(_ text: String, in options: [MoveOption]) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if let n = Int(t), (1...max(1, options.count)).contains(n), n <= options.count { return n - 1 }
        let lower = t.lowercased()
        return options.firstIndex { $0.key.lowercased() == lower || $0.label.lowercased() == lower }
            ?? options.firstIndex { String(decoding: $0.json, as: UTF8.self) == t }
    }

    /// The game's name for titles.
    public static func title(_ game: String) -> String {
        switch game {
        case SpiritsState.gameName: "Spirits!"
        case BriscolaState.gameName: "Briscola"
        case OthelloState.gameName: "Othello"
        case FifteenState4.gameName, FifteenState5.gameName, FifteenState6.gameName: "Fifteen-puzzle race"
        default: game
        }
    }
}
