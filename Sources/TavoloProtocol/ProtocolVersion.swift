// Wire protocol: message types, frame header, codecs (PROTOCOL.md).

/// The protocol version this build speaks.
public enum ProtocolVersion {
    public static let current: UInt8 = 1
}
