import NIOCore
import TavoloProtocol

/// Splits a TCP byte stream into frames (PROTOCOL.md §3). Waits without consuming until a whole frame is
/// buffered; rejects a bad header as soon as its 10 bytes are in, before any payload is buffered, so an
/// oversized length never makes the node allocate.
public struct FrameDecoder: ByteToMessageDecoder {
    public typealias InboundOut = Frame

    public let maxPayload: Int
    /// Called with every whole frame, header included, before it is decoded (byte counts, the packet log).
    /// The slice shares the buffer's storage: copying is left to whoever keeps the bytes.
    let onRawFrame: ((ByteBuffer) -> Void)?

    public init(maxPayload: Int = FrameLimits.maxReliablePayload, onRawFrame: ((ByteBuffer) -> Void)? = nil) {
        self.maxPayload = maxPayload
        self.onRawFrame = onRawFrame
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let headerBytes = buffer.getBytes(at: buffer.readerIndex, length: FrameLimits.headerSize) else {
            return .needMoreData
        }
        let header = try FrameHeader.parse(headerBytes, maxPayload: maxPayload)
        let total = FrameLimits.headerSize + Int(header.length)
        guard buffer.readableBytes >= total else { return .needMoreData }
        if let onRawFrame, let raw = buffer.getSlice(at: buffer.readerIndex, length: total) { onRawFrame(raw) }
        buffer.moveReaderIndex(forwardBy: FrameLimits.headerSize)
        guard let payload = buffer.readBytes(length: Int(header.length)) else { return .needMoreData }
        context.fireChannelRead(Self.wrapInboundOut(try Frame.decode(type: header.type, payload: payload)))
        return .continue
    }

    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        while try decode(context: context, buffer: &buffer) == .continue {}
        if buffer.readableBytes > 0 {
            let got = buffer.readableBytes
            var needed = FrameLimits.headerSize
            if let h = buffer.getBytes(at: buffer.readerIndex, length: FrameLimits.headerSize),
                let header = try? FrameHeader.parse(h, maxPayload: maxPayload)
            {
                needed += Int(header.length)
            }
            buffer.moveReaderIndex(forwardBy: got)
            throw FrameError.truncated(needed: needed, got: got)
        }
        return .needMoreData
    }
}
