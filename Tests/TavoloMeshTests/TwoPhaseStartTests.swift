import Foundation
import Logging
import NIOConcurrencyHelpers
import TavoloProtocol
import XCTest

@testable import TavoloMesh

/// A two-phase start (`MeshNode.make`, the event handler, then `listen()`), as `tavolod`'s: a peer that connects
/// and speaks the moment the node listens is announced to the handler, in order, and nothing goes to the stream.
final class TwoPhaseStartTests: LoopbackMeshTestCase {
    func testAPeerThatConnectsAsSoonAsTheNodeListensIsAnnouncedToTheHandler() async throws {
        var config = MeshConfiguration(name: "late")
        config.host = "127.0.0.1"
        config.heartbeatInterval = .milliseconds(200)
        config.heartbeatTimeout = .seconds(1)
        let late = try MeshNode.make(id: NodeID.random(), config: config, logger: Logger(label: "late"))
        let seen = NIOLockedValueBox<[String]>([])
        late.setEventHandler { event in
            switch event {
            case .peerConnected(let p): seen.withLockedValue { $0.append("connected \(p.name)") }
            case .message(let m):
                seen.withLockedValue { $0.append("message \(String(decoding: m.body, as: UTF8.self))") }
            default: break
            }
        }
        nodes.append(late)
        try await late.listen()
        let early = try await makeNode("early")
        introduce([late, early])
        try await eventually("connected") { await connectedCount(early) == 1 }
        try await early.send(["hello": 1], service: .tables, to: late.id)
        try await eventually("the events reach the handler") { seen.withLockedValue { $0.count } == 2 }
        XCTAssertEqual(seen.withLockedValue { $0 }, ["connected early", #"message {"hello":1}"#])
    }
}
