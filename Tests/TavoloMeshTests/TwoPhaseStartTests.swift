import Foundation
import NIOConcurrencyHelpers
import TavoloProtocol
import XCTest

@testable import TavoloMesh

/// A node whose events wait for its handler (as `tavolod`'s do) loses none that happened before the handler was
/// set: a peer that connected and spoke while the daemon was still starting is announced to it, in order.
final class EventsWaitForHandlerTests: LoopbackMeshTestCase {
    func testAPeerThatConnectedAndSpokeBeforeTheHandlerIsAnnouncedToIt() async throws {
        let late = try await makeNode("late") { $0.eventsWaitForHandler = true }
        let early = try await makeNode("early")
        introduce([late, early])
        try await eventually("connected") {
            let (a, b) = (await connectedCount(late), await connectedCount(early))
            return a == 1 && b == 1
        }
        try await early.send(["hello": 1], service: .tables, to: late.id)
        try await Task.sleep(for: .milliseconds(300))

        let seen = NIOLockedValueBox<[String]>([])
        late.setEventHandler { event in
            switch event {
            case .peerConnected(let p): seen.withLockedValue { $0.append("connected \(p.name)") }
            case .message(let m): seen.withLockedValue { $0.append("message \(String(decoding: m.body, as: UTF8.self))") }
            default: break
            }
        }
        try await eventually("the waiting events reach the handler") { seen.withLockedValue { $0.count } == 2 }
        XCTAssertEqual(seen.withLockedValue { $0 }, ["connected early", #"message {"hello":1}"#])
    }
}
