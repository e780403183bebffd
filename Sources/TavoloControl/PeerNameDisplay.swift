import Foundation

/// Names as lists show them (PROTOCOL.md §4.1): a name is anybody's to take, so two entries whose names look alike
/// — equal once case, compatibility forms and common look-alike letters are folded — are each shown with the
/// first 8 digits of their node id beside them.
public enum PeerNameDisplay {
    /// Letters of other scripts drawn like Latin ones, and digits drawn like letters.
    static let lookAlikes: [Character: Character] = [
        "а": "a", "в": "b", "с": "c", "е": "e", "һ": "h", "і": "i", "ј": "j", "к": "k", "м": "m", "н": "h", "о": "o",
        "р": "p", "ѕ": "s", "т": "t", "у": "y", "х": "x", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ɡ": "g", "ı": "i",
        "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x",
        "0": "o", "1": "l", "i": "l", "|": "l", "5": "s", "$": "s", "@": "a",
    ]

    /// What a name looks like: case folded, compatibility forms unified (NFKC: full-width letters, ligatures),
    /// marks dropped, look-alike letters replaced, spaces and `-`/`_`/`.` left out.
    public static func skeleton(_ name: String) -> String {
        let folded = name.precomposedStringWithCompatibilityMapping.lowercased()
            .folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
        var out = ""
        for c in folded where !c.isWhitespace && !"-_.".contains(c) {
            let mapped = lookAlikes[c] ?? c
            // "rn" reads as "m".
            if mapped == "n", out.last == "r" {
                out.removeLast()
                out.append("m")
            } else {
                out.append(mapped)
            }
        }
        return out
    }

    /// A name as a list shows it, given the name and the node that goes by it (nil for a bot: never marked).
    public typealias Marker = @Sendable (String, String?) -> String

    /// Shows every name as it is: for lists that know no other names.
    public static let plain: Marker = { name, _ in name }

    /// A `Marker` for the names `known` (this node, its peers, the names a list holds): a name that looks like the
    /// name of another known node gets ` (id 1a2b3c4d)` — the rule of the page's `nameMarker` (names.js).
    public static func marker(_ known: [(name: String?, node: String?)]) -> Marker {
        var nodesBySkeleton: [String: Set<String>] = [:]
        for k in known {
            guard let name = k.name, let node = k.node else { continue }
            nodesBySkeleton[skeleton(name), default: []].insert(node)
        }
        let nodes = nodesBySkeleton
        return { name, node in
            guard let node, nodes[skeleton(name)]?.contains(where: { $0 != node }) == true else { return name }
            return "\(name) (id \(node.prefix(8)))"
        }
    }

    /// `entries`' names, each with ` (id 1a2b3c4d)` beside it when another entry of another node has a name that
    /// looks the same (entries with no node, bots, are never marked).
    public static func names(_ entries: [(name: String, node: String?)]) -> [String] {
        let shown = marker(entries.map { ($0.name, $0.node) })
        return entries.map { shown($0.name, $0.node) }
    }
}
