import Foundation
import Logging
import TavoloCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A node's game logs on disk, `<state>/games/` (PROTOCOL.md §9.9): while a game goes on, its journal
/// `<table>.journal` (`GameJournal`) gets one appended line per deal, move or takeover this node applies; when the
/// game is over, the complete log `<table>.json` (§9.6) is written durably and the journal removed.
///
/// Used by the table shell only, on its disk's thread (`TableDisk`: one job at a time, hence unchecked); the flushes
/// it asks for run on `JournalSync`'s queue.
final class GameLogStore: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What one `save` wrote.
    enum Written: Equatable {
        /// Records appended to the open journal with one `write` (flushed later, by the group commit).
        case appended
        /// A journal (re)written whole and durably: the header once the joint seed is known.
        case started
        /// The complete log, the game being over; its journal removed.
        case complete
        /// Nothing had changed since the last write.
        case nothing
    }

    /// The open journal of one game under way, and how much of its log is in it.
    private struct OpenJournal {
        var fd: Int32
        var header: GameLog
        var deals: Int
        var moves: Int
        var takeovers: Int
    }

    let games: String
    let sync: JournalSync
    private var journals: [TableID: OpenJournal] = [:]

    init(stateDirectory: String, sync: JournalSync) {
        games = (stateDirectory as NSString).appendingPathComponent("games")
        self.sync = sync
    }

    func journalPath(_ id: TableID) -> String { "\(games)/\(id).journal" }
    func completePath(_ id: TableID) -> String { "\(games)/\(id).json" }

    /// Brings the disk up to `log`: the complete log when the game is over here, else the journal — the records
    /// added since the last save appended with a single `write`, or the whole journal written when there is none.
    func save(_ log: GameLog) throws(Failure) -> Written {
        let id = log.table.id
        if log.isComplete { return try complete(log) }
        guard let j = journals[id], log.deals.count >= j.deals, log.moves.count >= j.moves,
            (log.takeovers?.count ?? 0) >= j.takeovers
        else {
            // No journal yet (the joint seed was just agreed), or the log lost entries (it never does): whole.
            try start(log)
            return .started
        }
        let header = log.journalHeader
        var bytes: [UInt8] = []
        do {
            if header != j.header { bytes += try GameJournal.Record.header(header).line() }
            for d in log.deals[j.deals...] { bytes += try GameJournal.Record.deal(d).line() }
            for t in (log.takeovers ?? [])[j.takeovers...] { bytes += try GameJournal.Record.takeover(t).line() }
            for m in log.moves[j.moves...] { bytes += try GameJournal.Record.move(m).line() }
        } catch {
            throw Failure(description: "cannot encode the journal of table \(id): \(error)")
        }
        guard !bytes.isEmpty else { return .nothing }
        do { try Self.writeAll(j.fd, bytes) } catch {
            // Whatever part went out may be a torn line in the middle: the next save writes the journal whole.
            forget(id, flush: false)
            throw Failure(description: "cannot append to the journal of table \(id): \(error.description)")
        }
        journals[id] = OpenJournal(
            fd: j.fd, header: header, deals: log.deals.count, moves: log.moves.count,
            takeovers: log.takeovers?.count ?? 0)
        sync.appended(j.fd)
        return .appended
    }

    /// Writes the whole journal of `log` durably (temporary file, fsync, rename, fsync of the directory), replacing
    /// any journal of that table — with it a torn last line — and opens it for appending. Used once the joint seed
    /// is known, and when a restarted node picks the game up again.
    func start(_ log: GameLog) throws(Failure) {
        let id = log.table.id
        forget(id, flush: false)
        let path = journalPath(id)
        do {
            try FileManager.default.createDirectory(atPath: games, withIntermediateDirectories: true)
            try DurableFile.replace(path, with: GameJournal.lines(for: log), sync: sync.enabled)
        } catch {
            throw Failure(description: "cannot write the journal of table \(id): \(error)")
        }
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard fd >= 0 else {
            throw Failure(description: "cannot open \(path) to append: \(String(cString: strerror(errno)))")
        }
        journals[id] = OpenJournal(
            fd: fd, header: log.journalHeader, deals: log.deals.count, moves: log.moves.count,
            takeovers: log.takeovers?.count ?? 0)
    }

    /// The game is over: its complete log replaces the journal. The log is durable (renamed and flushed) before
    /// the journal goes, so a crash in between leaves both, and a restart sees the game over (`unfinished`).
    private func complete(_ log: GameLog) throws(Failure) -> Written {
        let id = log.table.id
        // A finished or stopped game is restored by nobody: the votes a restart would count again are no news.
        var log = log
        log.ownVotes = nil
        log.sealedResume = nil
        do {
            try FileManager.default.createDirectory(atPath: games, withIntermediateDirectories: true)
            try log.save(games: games, sync: sync.enabled)
        } catch {
            throw Failure(description: "cannot write the game log of table \(id): \(error)")
        }
        forget(id, flush: false)
        if unlink(journalPath(id)) != 0 && errno != ENOENT {
            throw Failure(description: "cannot remove \(journalPath(id)): \(String(cString: strerror(errno)))")
        }
        return .complete
    }

    /// Closes the journal of table `id` (on the flush queue, after the flushes asked before).
    private func forget(_ id: TableID, flush: Bool) {
        guard let j = journals.removeValue(forKey: id) else { return }
        sync.close(j.fd, flush: flush)
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(Failure) {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + written }, bytes.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(description: String(cString: strerror(errno)))
            }
            written += n
        }
    }
}

// MARK: Reading

/// The game logs a node finds in its state directory.
public enum SavedGames {
    /// A game under way when the node stopped, read back from its journal, or from a complete-format
    /// `<table>.json` still unfinished (written by a node before journals).
    public struct Unfinished: Sendable {
        public var file: String
        public var log: GameLog
        /// The journal's last line was torn by a crash mid-append and left out.
        public var tornTail: Bool
    }

    /// Every unfinished game of `<stateDirectory>/games/`, in file-name order, and a line for each journal that
    /// cannot be read (not restored; left on disk for a person to look at). A journal whose table has a complete
    /// log is left over from a crash just after the game ended: it is removed.
    public static func unfinished(stateDirectory: String) -> (games: [Unfinished], problems: [String]) {
        let dir = (stateDirectory as NSString).appendingPathComponent("games")
        let files = Set((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
        var ids = Set<String>()
        for f in files where f.hasSuffix(".journal") || f.hasSuffix(".json") {
            ids.insert((f as NSString).deletingPathExtension)
        }
        var games: [Unfinished] = []
        var problems: [String] = []
        for id in ids.sorted() {
            let complete = files.contains("\(id).json") ? readComplete("\(dir)/\(id).json") : nil
            if files.contains("\(id).journal") {
                if complete?.isComplete == true {
                    unlink("\(dir)/\(id).journal")
                    continue
                }
                let file = "\(id).journal"
                switch readJournal("\(dir)/\(file)") {
                case .success(let contents):
                    if contents.log.isUnfinishedGame {
                        games.append(Unfinished(file: file, log: contents.log, tornTail: contents.tornTail))
                    }
                case .failure(let problem): problems.append("cannot restore \(file): \(problem)")
                }
            } else if let complete, complete.isUnfinishedGame {
                games.append(Unfinished(file: "\(id).json", log: complete, tornTail: false))
            }
        }
        return (games, problems)
    }

    /// The log of table `id` as this node's disk holds it now: the journal while the game goes on, else the
    /// complete log. Nil when there is neither or it cannot be read.
    public static func load(stateDirectory: String, table id: TableID) -> GameLog? {
        let dir = (stateDirectory as NSString).appendingPathComponent("games")
        if case .success(let contents) = readJournal("\(dir)/\(id).journal") { return contents.log }
        return readComplete("\(dir)/\(id).json")
    }

    static func readJournal(_ path: String) -> Result<GameJournal.Contents, GameJournal.Malformed> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(GameJournal.Malformed(line: 0, reason: "cannot be read"))
        }
        do { return .success(try GameJournal.read(Array(data))) } catch { return .failure(error) }
    }

    static func readComplete(_ path: String) -> GameLog? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? CanonicalJSON.decode(GameLog.self, Array(data))
    }
}

extension GameLog {
    /// A game that had begun (its joint seed known) and is not over: what a restart picks up (§9.11).
    var isUnfinishedGame: Bool { !isComplete && jointSeed != nil }
}
