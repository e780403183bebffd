/// `1 move`, `2 moves`, `0 moves`: a count with its noun, for every text a person reads (issue 34: `1 moves`).
/// Nouns that add `s` only; pass `plural` for any other.
public func counted(_ n: Int, _ noun: String, plural: String? = nil) -> String {
    "\(n) \(n == 1 ? noun : plural ?? noun + "s")"
}
