import Foundation

/// Where a person stands at a table, in words: a pause (who, for how long, when a bot takes over in local time), a
/// takeover or forfeit, being voted out, a stop. One set of texts for `tavolo play`, `tavolo watch`, `tavolo state`
/// and the page (which reads them from `TableState.notices`), so the three say the same thing.
public enum TableNotices {
    /// `Paused for 33 s: bob was lost at 21:04:15; a bot takes their seat at 21:06:15, in 1 min 27 s, unless they
    /// come back`: who, for how long, and when a bot takes over as a clock time and a countdown, both in the person's
    /// time zone. `since` is ISO 8601 (the shell's stamp, UTC); shown in `timeZone`.
    public static func paused(
        absent: [String], since: String?, graceSeconds: Int, now: Date, timeZone: TimeZone = .current
    ) -> String {
        let who = absent.isEmpty ? "a member" : list(absent)
        let verb = absent.count > 1 ? "were" : "was"
        let seat = absent.count > 1 ? "seats" : "seat"
        guard let since, let start = parse(since) else {
            return "Paused: \(who) \(verb) lost; a bot takes their \(seat) after \(duration(graceSeconds)) unless they "
                + "come back"
        }
        let paused = max(0, Int(now.timeIntervalSince(start)))
        let left = Int((Double(graceSeconds) - now.timeIntervalSince(start)).rounded(.up))
        let takeover = start.addingTimeInterval(Double(graceSeconds))
        let then =
            left > 0
            ? "a bot takes their \(seat) at \(clock(takeover, timeZone: timeZone)), in \(duration(left)), unless they "
                + "come back"
            : "a bot takes their \(seat) as soon as the others agree, unless they come back first"
        return "Paused for \(duration(paused)): \(who) \(verb) lost at \(clock(start, timeZone: timeZone)); \(then)"
    }

    /// `45 s`, `2 min`, `1 min 27 s`.
    static func duration(_ seconds: Int) -> String {
        let (m, s) = (seconds / 60, seconds % 60)
        if m == 0 { return "\(s) s" }
        return s == 0 ? "\(m) min" : "\(m) min \(s) s"
    }

    /// Every notice for `state` at `now`, most urgent first: a pause, being voted out, the takeovers, a stop.
    public static func lines(_ state: TableState, now: Date, timeZone: TimeZone = .current) -> [String] {
        var out: [String] = []
        if state.info.phase == .paused {
            out.append(
                paused(
                    absent: state.absent, since: state.pausedSince, graceSeconds: state.info.graceSeconds, now: now,
                    timeZone: timeZone))
        }
        if let seats = state.spectatorOf {
            out.append(
                "You were voted out: \(seatList(seats)) passed to a bot; you follow the game as a spectator")
        }
        if state.outsider == true && state.info.phase != .open { out.append(outsider) }
        if state.leftAt != nil { out.append(youLeft(state)) }
        for d in state.departures ?? [] where !(d.isMe && d.forfeit) { out.append(departure(d)) }
        for t in state.takeovers { out.append(takeover(t, in: state)) }
        // The leaver's own copy stops; its line above says why, in words, not as a stop code.
        if state.info.phase == .stopped && state.leftAt == nil {
            out.append("The table stopped" + (state.stopped.map { ": \($0)" } ?? ""))
        }
        return out
    }

    /// Watching a table this node is not at: what it can and cannot show.
    public static let outsider =
        "You are not at this table: its moves go only to its members' nodes; here you see its seats, its phase and how "
        + "it ends"

    /// `seat 2`, `seats 1 and 3`.
    static func seatList(_ seats: [Int]) -> String {
        (seats.count == 1 ? "seat " : "seats ") + list(seats.map(String.init))
    }

    /// `bob`, `bob and carol`, `bob, carol and dan`.
    static func list(_ items: [String]) -> String {
        guard items.count > 1, let last = items.last else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + last
    }

    static func parse(_ iso: String) -> Date? {
        let f = ISO8601DateFormatter()
        if let d = f.date(from: iso) { return d }
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: iso)
    }

    /// `21:04:15` in the person's time zone.
    static func clock(_ date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d", c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }
}
