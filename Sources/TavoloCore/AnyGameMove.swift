/// A move of some game, decoded once at the edge into the game's own `Move` type and compared as a value:
/// legality is `legalMoves().contains(move)`, never a comparison of encoded bytes.
public struct AnyGameMove: Hashable, Sendable, CustomStringConvertible {
    /// The game's own move value.
    public let base: any GameMove

    public init(_ base: some GameMove) { self.base = base }

    /// The game's move, when it is of type `M`.
    public func `as`<M: GameMove>(_ type: M.Type) -> M? { base as? M }

    public static func == (a: AnyGameMove, b: AnyGameMove) -> Bool {
        func equals<M: GameMove>(_ x: M) -> Bool { (b.base as? M) == x }
        return equals(a.base)
    }

    public func hash(into hasher: inout Hasher) { base.hash(into: &hasher) }

    public var description: String { base.description }

    /// The move as canonical JSON, as it travels in `table.move`.
    public var json: JSONValue {
        func encode<M: GameMove>(_ m: M) -> JSONValue { (try? JSONValue(encoding: m)) ?? .null }
        return encode(base)
    }
}
