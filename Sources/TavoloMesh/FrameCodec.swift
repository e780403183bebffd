import NIOCore
import TavoloProtocol

/// Cuts a TCP byte stream into whole frames, header included, without decoding payloads (PROTOCOL.md §3).
/// Waits without consuming until a whole frame is buffered; rejects a bad header as soon as its 10 bytes are in,
/// before any payload is buffered, so an oversized length never makes the node allocate.
///
/// Whole raw frames are what the packet log records and the byte counters count (`TrafficHandler`, next in the
/// pipeline); `FramePayloadDecoder` then turns them into `Frame`s.
public struct FrameSplitter: ByteToMessageDecoder {
    public typealias InboundOut = ByteBuffer

    public let maxPayload: Int
    /// Limit of the first frame, which must be the handshake: a peer not yet admitted cannot make the node buffer
    /// a megabyte.
    public let maxFirstPayload: Int
    private var seenFirst = false

    public init(maxPayload: Int = FrameLimits.maxReliablePayload, maxFirstPayload: Int? = nil) {
        self.maxPayload = maxPayload
        self.maxFirstPayload = min(maxFirstPayload ?? maxPayload, maxPayload)
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let frame = try nextFrame(&buffer) else { return .needMoreData }
        context.fireChannelRead(Self.wrapInboundOut(frame))
        return .continue
    }

    /// The next whole frame (a slice sharing the buffer's storage), or nil until one is buffered.
    mutating func nextFrame(_ buffer: inout ByteBuffer) throws(FrameError) -> ByteBuffer? {
        guard let headerBytes = buffer.getBytes(at: buffer.readerIndex, length: FrameLimits.headerSize) else {
            return nil
        }
        let header = try FrameHeader.parse(headerBytes, maxPayload: seenFirst ? maxPayload : maxFirstPayload)
        guard let frame = buffer.readSlice(length: FrameLimits.headerSize + Int(header.length)) else { return nil }
        seenFirst = true
        return frame
    }

    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        while try decode(context: context, buffer: &buffer) == .continue {}
        try Self.checkNoLeftover(&buffer, maxPayload: maxPayload)
        return .needMoreData
    }

    /// A stream that ends inside a frame is reported (and the leftover dropped).
    static func checkNoLeftover(_ buffer: inout ByteBuffer, maxPayload: Int) throws(FrameError) {
        guard buffer.readableBytes > 0 else { return }
        let got = buffer.readableBytes
        var needed = FrameLimits.headerSize
        if let h = buffer.getBytes(at: buffer.readerIndex, length: FrameLimits.headerSize),
            let header = try? FrameHeader.parse(h, maxPayload: maxPayload)
        {
            needed += Int(header.length)
        }
        buffer.moveReaderIndex(forwardBy: got)
        throw .truncated(needed: needed, got: got)
    }
}

/// Decodes whole raw frames (from `FrameSplitter`) into `Frame`s; a payload that does not decode is reported
/// through `errorCaught`, which the session answers with the matching goodbye.
final class FramePayloadDecoder: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = Frame

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var raw = unwrapInboundIn(data)
        do {
            context.fireChannelRead(wrapInboundOut(try Self.decode(&raw)))
        } catch {
            context.fireErrorCaught(error)
        }
    }

    /// The header was checked by the splitter; this reads it again only for the type.
    static func decode(_ raw: inout ByteBuffer) throws(FrameError) -> Frame {
        guard let typeByte = raw.getInteger(at: raw.readerIndex + 3, as: UInt8.self),
            let type = MessageType(rawValue: typeByte)
        else { throw .truncated(needed: FrameLimits.headerSize, got: raw.readableBytes) }
        raw.moveReaderIndex(forwardBy: FrameLimits.headerSize)
        if type == .application || type == .compact, let service = raw.readInteger(as: UInt8.self) {
            // The service byte (§3.9) read apart from the message: the message is copied once, not twice.
            let message = raw.readBytes(length: raw.readableBytes) ?? []
            return try Frame.decodeMessage(type: type, service: Service(rawValue: service), message: message)
        }
        return try Frame.decode(type: type, payload: raw.readBytes(length: raw.readableBytes) ?? [])
    }
}

/// Splitter and payload decoder in one, for a pipeline that neither counts nor records (tools, tests).
public struct FrameDecoder: ByteToMessageDecoder {
    public typealias InboundOut = Frame

    private var splitter: FrameSplitter
    public var maxPayload: Int { splitter.maxPayload }

    public init(maxPayload: Int = FrameLimits.maxReliablePayload) { splitter = FrameSplitter(maxPayload: maxPayload) }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard var raw = try splitter.nextFrame(&buffer) else { return .needMoreData }
        context.fireChannelRead(Self.wrapInboundOut(try FramePayloadDecoder.decode(&raw)))
        return .continue
    }

    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        while try decode(context: context, buffer: &buffer) == .continue {}
        try FrameSplitter.checkNoLeftover(&buffer, maxPayload: maxPayload)
        return .needMoreData
    }
}
