/// Columns of text that stay aligned whatever their contents: each column as wide as its widest cell (a node name
/// can be 63 bytes; `tavolo peers` once padded names to 16 and broke its columns for longer ones). The last column
/// is not padded.
public enum TextTable {
    public static func lines(header: [String], rows: [[String]], gap: Int = 2) -> [String] {
        let all = [header] + rows
        let columns = all.map(\.count).max() ?? 0
        let widths = (0..<columns).map { c in all.map { c < $0.count ? $0[c].count : 0 }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { c, cell in
                c == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[c] - cell.count + gap)
            }.joined()
        }
    }
}
