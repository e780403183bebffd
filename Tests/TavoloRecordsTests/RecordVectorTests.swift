import Foundation
import TavoloCore
import TavoloGames
import TavoloRecordFormat
import TavoloRecords
import XCTest

/// `Protocol/vectors/records.json` (PROTOCOL.md §11): record ids, what a receiver accepts or refuses, bucket
/// digests and the bytes of every message type. `TAVOLO_WRITE_RECORD_VECTORS=1` writes the file from this
/// implementation; `Protocol/vectors/check_record_vectors.py` checks ids, digests and bytes independently.
final class RecordVectorTests: XCTestCase {
    static var file: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Protocol/vectors/records.json")
    }

    struct Vectors: Codable {
        struct Record: Codable {
            var name: String
            var id: String
            var body: String
            /// "accept", or the refusal a receiver must give (the start of `RecordVerifier`'s reason).
            var expect: String
        }
        struct Message: Codable {
            var name: String
            var json: String
        }
        struct Summary: Codable {
            var ids: [String]
            var buckets: [String]
        }
        var records: [Record]
        var summary: Summary
        var messages: [Message]
    }

    func make() throws -> Vectors {
        let genuine = try RecordFactory.playout(
            catalog: .standard, game: "othello", players: 2, seed: 5, bot: "greedy", names: ["ann", "bob"],
            table: "0a1b2c3d-1", endedAt: 1_700_000_060_000)
        var changed = try genuine.decodedBody()
        changed.winners = changed.winners == [0] ? [1] : [0]
        let tampered = RecordedGame(body: try CanonicalJSON.encode(changed), startedAt: nil, endedAt: 0)
        var cutBody = try genuine.decodedBody()
        cutBody.moves.removeLast()
        let cut = RecordedGame(body: try CanonicalJSON.encode(cutBody), startedAt: nil, endedAt: 0)
        let briscola = try RecordFactory.playout(
            catalog: .standard, game: "briscola", players: 2, seed: 9, bot: "emulator", names: ["cat", "dan"],
            table: "0a1b2c3d-2", endedAt: 1_700_000_120_000)
        // Seat 1 left at move 10 (a forfeit): the heir's bot, named in `seats`, played it on (§9.12, §11.1).
        var forfeitBody = try genuine.decodedBody()
        forfeitBody.table = "0a1b2c3d-3"
        forfeitBody.takeovers = [
            .init(
                member: String(format: "%032x", 9), name: "eve", seats: [1], heir: forfeitBody.seats[1].node,
                bot: "greedy", number: 10, appliedAt: 10, forfeit: true)
        ]
        let forfeit = RecordedGame(body: try CanonicalJSON.encode(forfeitBody), startedAt: nil, endedAt: 0)
        var strayBody = forfeitBody
        strayBody.takeovers?[0].heir = strayBody.seats[0].node
        let stray = RecordedGame(body: try CanonicalJSON.encode(strayBody), startedAt: nil, endedAt: 0)
        func text(_ r: RecordedGame) -> String { String(decoding: r.body, as: UTF8.self) }
        let ids = [genuine.id, briscola.id].sorted()
        let bucket = Int(genuine.id.prefix(2), radix: 16)!
        func json(_ m: RecordMessage) throws -> String { String(decoding: try CanonicalJSON.encode(m), as: UTF8.self) }
        return Vectors(
            records: [
                .init(name: "othello, finished", id: genuine.id, body: text(genuine), expect: "accept"),
                .init(name: "briscola, finished", id: briscola.id, body: text(briscola), expect: "accept"),
                .init(
                    name: "othello, winner changed (id recomputed)", id: tampered.id, body: text(tampered),
                    expect: "winners or scores are not the ones the moves give"),
                .init(
                    name: "othello, winner changed under the genuine id", id: genuine.id, body: text(tampered),
                    expect: "id is not the SHA-256 of the body"),
                .init(
                    name: "othello, last move missing", id: cut.id, body: text(cut),
                    expect: "the moves reach"),
                .init(
                    name: "othello, finished, seat 1 left at move 10 and a bot played it on", id: forfeit.id,
                    body: text(forfeit), expect: "accept"),
                .init(
                    name: "othello, a takeover whose heir does not own the seat at the end", id: stray.id,
                    body: text(stray), expect: "takeover: seat 1 is not owned at the end by its last heir's bot"),
            ],
            summary: .init(ids: ids, buckets: RecordStore.bucketDigests(of: ids)),
            messages: [
                .init(name: "summary", json: try json(.summary(count: 2, buckets: RecordStore.bucketDigests(of: ids)))),
                .init(name: "ids", json: try json(.ids(bucket: bucket, ids: [genuine.id]))),
                .init(name: "data", json: try json(.data([.init(briscola)]))),
                .init(name: "ack", json: try json(.ack(accepted: 1, refused: 0))),
            ])
    }

    func testVectors() throws {
        let made = try make()
        // The race records come from the independent generator (generate_race_record_vectors.py), not from here.
        let isRace = { (r: Vectors.Record) in r.name.hasPrefix("fifteen race") }
        if ProcessInfo.processInfo.environment["TAVOLO_WRITE_RECORD_VECTORS"] == "1" {
            let kept = try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: Self.file)).records.filter(isRace)
            var written = made
            written.records += kept
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            try e.encode(written).write(to: Self.file)
        }
        let file = try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: Self.file))
        XCTAssertEqual(file.records.filter(isRace).count, 4, "the race records (§11.1) are in the vectors")
        let verifier = RecordVerifier(catalog: .standard)
        for r in file.records {
            switch verifier.verify(id: r.id, body: Array(r.body.utf8)) {
            case .success: XCTAssertEqual(r.expect, "accept", r.name)
            case .failure(let why): XCTAssertTrue(why.description.hasPrefix(r.expect), "\(r.name): \(why)")
            }
        }
        XCTAssertEqual(RecordStore.bucketDigests(of: file.summary.ids), file.summary.buckets)
        for m in file.messages {
            let decoded = try CanonicalJSON.decode(RecordMessage.self, Array(m.json.utf8))
            XCTAssertNil(decoded.limitProblem, m.name)
            XCTAssertEqual(String(decoding: try CanonicalJSON.encode(decoded), as: UTF8.self), m.json, m.name)
        }
        XCTAssertEqual(
            file.records.filter { !isRace($0) }.map(\.id), made.records.map(\.id),
            "the engines or the body format changed")
    }
}
