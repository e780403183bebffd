import Foundation
import NIOCore

/// One frame as it crossed this node's sockets, for the packet log. Recording never changes what is sent.
public struct CapturedFrame: Sendable {
    public enum Direction: String, Sendable { case sent, received }
    public enum Transport: String, Sendable { case tcp, udp }

    public var time: Date
    public var direction: Direction
    public var transport: Transport
    public var local: SocketAddress?
    public var remote: SocketAddress?
    /// The whole frame: header and payload, exactly the bytes on the wire.
    public var bytes: [UInt8]
}

/// Receives every frame a node sends and receives (on its event loop: keep it quick, hand off I/O).
public protocol FrameRecorder: Sendable {
    func record(_ frame: CapturedFrame)
}
