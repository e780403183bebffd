import Foundation
import Logging
import TavoloProtocol
import TavoloTestSupport
import XCTest

@testable import TavoloMesh

/// In-process nodes on 127.0.0.1 for loopback tests: made with short heartbeats, introduced to each other by hand,
/// shut down after each test. No tests of its own (a subclass would run them again).
class LoopbackMeshTestCase: XCTestCase {
    var nodes: [MeshNode] = []

    override func tearDown() async throws {
        for n in nodes { await n.shutdown() }
        nodes = []
    }

    func makeNode(
        _ name: String, id: NodeID? = nil, logger custom: Logger? = nil,
        configure: (inout MeshConfiguration) -> Void = { _ in }
    ) async throws -> MeshNode {
        var config = MeshConfiguration(name: name)
        config.host = "127.0.0.1"
        config.heartbeatInterval = .milliseconds(200)
        config.heartbeatTimeout = .seconds(1)
        configure(&config)
        var logger = Logger(label: "test.\(name)")
        logger.logLevel = .warning
        if let custom { logger = custom }
        let node = try await MeshNode.start(id: id ?? NodeID.random(), config: config, logger: logger)
        nodes.append(node)
        return node
    }

    func introduce(_ nodes: [MeshNode]) {
        for a in nodes {
            for b in nodes where a !== b {
                a.discovered(
                    DiscoveredNode(name: b.config.name, address: "127.0.0.1", port: b.tcpPort, txt: b.txtRecord))
            }
        }
    }

    /// Polls until `condition` holds or `seconds` pass; fails the test if it never does. Only a bound on waiting,
    /// never a measurement: nothing asserts how long anything took.
    func eventually(
        _ what: String, seconds: Double = 10, file: StaticString = #filePath, line: UInt = #line,
        _ condition: () async -> Bool
    ) async throws {
        try await TavoloTestSupport.eventually(what, within: seconds, file: file, line: line, condition)
    }

    func connectedCount(_ n: MeshNode) async -> Int { await n.peerList().filter { $0.state == .connected }.count }
}
