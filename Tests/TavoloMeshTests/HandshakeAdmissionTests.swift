import TavoloProtocol
import XCTest

@testable import TavoloMesh

/// The admission table of PROTOCOL.md §4.7, check by check and in order, without sockets.
final class HandshakeAdmissionTests: XCTestCase {
    let me = NodeID(hex: "80000000000000000000000000000000")!
    let small = NodeID(hex: "01000000000000000000000000000000")!
    let large = NodeID(hex: "ff000000000000000000000000000000")!
    lazy var admission = HandshakeAdmission(localID: me, localVersion: 1)

    func hello(_ id: NodeID, version: Int = 1) -> Handshake {
        Handshake(version: version, nodeId: id, name: "peer", udpPort: 4000, capabilities: [])
    }

    func inbound(shuttingDown: Bool = false, established: Bool = false) -> HandshakeAdmission.Situation {
        .init(outbound: false, expectedPeer: nil, shuttingDown: shuttingDown, establishedExists: established)
    }

    func outbound(expecting id: NodeID, shuttingDown: Bool = false, established: Bool = false)
        -> HandshakeAdmission.Situation
    {
        .init(outbound: true, expectedPeer: id, shuttingDown: shuttingDown, establishedExists: established)
    }

    func code(_ v: HandshakeAdmission.Verdict) -> GoodbyeCode? {
        if case .refuse(let r) = v { return r.code }
        return nil
    }

    func testAcceptsTheRightDialerInBothDirections() {
        XCTAssertEqual(admission.decide(hello(small), inbound()), .accept(replacesExisting: false))
        XCTAssertEqual(admission.decide(hello(large), outbound(expecting: large)), .accept(replacesExisting: false))
    }

    func testEachRefusal() {
        XCTAssertEqual(code(admission.decide(hello(small, version: 2), inbound())), .versionMismatch)
        XCTAssertEqual(code(admission.decide(hello(me), inbound())), .selfConnection)
        XCTAssertEqual(code(admission.decide(hello(small), outbound(expecting: large))), .protocolError)
        XCTAssertEqual(code(admission.decide(hello(large), inbound())), .wrongDialer)
        XCTAssertEqual(code(admission.decide(hello(small), inbound(shuttingDown: true))), .shutdown)
        XCTAssertEqual(
            code(admission.decide(hello(large), outbound(expecting: large, established: true))), .duplicateConnection)
    }

    /// The first failing check wins: the order of the table is part of the protocol.
    func testChecksRunInTheSpecifiedOrder() {
        // version before self
        XCTAssertEqual(code(admission.decide(hello(me, version: 9), inbound())), .versionMismatch)
        // self before shutdown
        XCTAssertEqual(code(admission.decide(hello(me), inbound(shuttingDown: true))), .selfConnection)
        // advertised id before duplicate
        XCTAssertEqual(
            code(admission.decide(hello(small), outbound(expecting: large, established: true))), .protocolError)
        // wrong dialer before shutdown
        XCTAssertEqual(code(admission.decide(hello(large), inbound(shuttingDown: true))), .wrongDialer)
        // shutdown before duplicate
        XCTAssertEqual(
            code(admission.decide(hello(large), outbound(expecting: large, shuttingDown: true, established: true))),
            .shutdown)
    }

    /// On an accepted connection the newer one wins: the dialer gave up on the old one.
    func testANewInboundConnectionReplacesTheEstablishedOne() {
        XCTAssertEqual(admission.decide(hello(small), inbound(established: true)), .accept(replacesExisting: true))
    }
}
