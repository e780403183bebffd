import Foundation
import GRDB
import TavoloCore
import TavoloRecordFormat
import TavoloTable

/// Opening the records of a state directory: the first start imports the game logs written before records
/// existed; `--rebuild-records` moves a broken database aside and rebuilds it from the same logs.
extension RecordStore {
    public static func path(stateDirectory: String) -> String {
        (stateDirectory as NSString).appendingPathComponent(fileName)
    }

    /// Opens the node's records; a new database (first start) imports `games/*.json` first.
    public static func open(stateDirectory: String, me: String) throws(OpenError) -> (RecordStore, imported: Int) {
        let path = path(stateDirectory: stateDirectory)
        let isNew = !FileManager.default.fileExists(atPath: path)
        let store = try RecordStore(path: path, me: me)
        guard isNew else { return (store, 0) }
        return (store, (try? store.importLogs(stateDirectory: stateDirectory)) ?? 0)
    }

    /// Moves the database (and its WAL files) aside as `records.sqlite.broken-<time>`, then opens a new one
    /// filled from the game logs. Returns the store, how many games it imported, and where the old file went.
    public static func rebuild(stateDirectory: String, me: String) throws(OpenError)
        -> (RecordStore, imported: Int, movedTo: String?)
    {
        let path = path(stateDirectory: stateDirectory)
        var moved: String?
        if FileManager.default.fileExists(atPath: path) {
            let aside = "\(path).broken-\(Int(Date().timeIntervalSince1970))"
            do { try FileManager.default.moveItem(atPath: path, toPath: aside) } catch {
                throw OpenError(description: "cannot move \(path) aside: \(error.localizedDescription)")
            }
            moved = aside
        }
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try? FileManager.default.moveItem(atPath: path + suffix, toPath: (moved ?? path) + suffix)
        }
        let store = try RecordStore(path: path, me: me)
        let n = (try? store.importLogs(stateDirectory: stateDirectory)) ?? 0
        return (store, n, moved)
    }

    /// Records every game log of `games/` not recorded yet, in one transaction; returns how many were new.
    /// A log that does not decode is skipped (it is not a game this node can vouch for).
    @discardableResult
    public func importLogs(stateDirectory: String) throws -> Int {
        let dir = (stateDirectory as NSString).appendingPathComponent("games")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        var batch: [(RecordedGame, RecordBody)] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let file = (dir as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: file),
                let log = try? CanonicalJSON.decode(GameLog.self, Array(data))
            else { continue }
            let modified = (try? FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date)
            let ended = Int64(((modified ?? Date()).timeIntervalSince1970 * 1000).rounded())
            guard let record = RecordedGame.from(log, startedAt: nil, endedAt: ended),
                let body = try? record.decodedBody()
            else { continue }
            batch.append((record, body))
        }
        return try insert(batch, source: .import)
    }
}
