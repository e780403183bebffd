/// How many accepted connections from one IP address may begin their handshake in a minute (PROTOCOL.md §3.4).
/// Keys are free: a host that opens connection after connection, each under a fresh key, would otherwise have the
/// node run a Noise handshake and set up a peer for every one. Past the bound the connection is refused in clear,
/// before any of that work. Pure: the caller gives the time.
struct NewConnectionRate: Sendable {
    enum Verdict: Equatable, Sendable {
        case admitted
        /// Refused; `firstThisMinute` for the address's first refusal in its current minute (the one to log).
        case refused(firstThisMinute: Bool)
    }

    let perMinute: Int
    private var windows: [String: (start: ContinuousClock.Instant, used: Int, refused: Bool)] = [:]

    init(perMinute: Int) { self.perMinute = perMinute }

    /// A connection from `address` was accepted at `now`: whether it may begin its handshake. A refused one does
    /// not count (it cost nothing), so a host hammering the port is admitted again as soon as its minute ends.
    mutating func opened(from address: String, now: ContinuousClock.Instant) -> Verdict {
        // Forget finished minutes once many addresses were seen: memory stays bounded whatever the addresses.
        if windows.count > 4_096 { windows = windows.filter { now - $0.value.start < .seconds(60) } }
        var w = windows[address] ?? (now, 0, false)
        if now - w.start >= .seconds(60) { w = (now, 0, false) }
        defer { windows[address] = w }
        guard w.used < perMinute else {
            defer { w.refused = true }
            return .refused(firstThisMinute: !w.refused)
        }
        w.used += 1
        return .admitted
    }
}
