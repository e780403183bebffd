import Foundation
import TavoloControl
import XCTest

/// The page's port across restarts of a node (issue 34): the same port after a `kill -9` and a start with the same
/// state directory, so an open tab reconnects; another one only when that port is taken meanwhile.
final class WebPortIntegrationTests: DaemonTestCase {
    func testThePageKeepsItsPortAcrossRestartsAndMovesOnlyWhenItIsTaken() throws {
        let node = try harness.startNode()
        let first = try pagePort(node)

        harness.kill9(node)
        try harness.restart(node)
        XCTAssertEqual(try pagePort(node), first, "a restarted node serves its page on the port it had")

        // Someone else takes the port while the node is down: the node picks a free one and keeps that next time.
        harness.kill9(node)
        let squatter = try listen(on: first)
        defer { close(squatter) }
        try harness.restart(node)
        let moved = try pagePort(node)
        XCTAssertNotEqual(moved, first, "the port was taken")
        harness.kill9(node)
        try harness.restart(node)
        XCTAssertEqual(try pagePort(node), moved, "the new port is the one kept")
    }

    /// The page's port, once the node's control socket answers.
    private func pagePort(_ node: Int) throws -> Int {
        var link: WebLinkInfo?
        try harness.eventually("node \(node) serves its page", seconds: 30) {
            link = try? ControlClient(path: harness.nodes[node].controlPath).call(.web)
            return link != nil
        }
        return link?.port ?? 0
    }

    /// A socket listening on 127.0.0.1:`port`, as another program holding it would.
    private func listen(on port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, Glibc.listen(fd, 1) == 0 else {
            close(fd)
            throw HarnessError("cannot hold port \(port) for the test: errno \(errno)")
        }
        return fd
    }
}
