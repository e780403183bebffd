import NIOCore
import TavoloControl

/// Splits bytes at '\n' (dropping an optional '\r'); a line longer than the limit is an error, so a client
/// cannot make the daemon buffer without bound.
struct LineDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    struct LineTooLong: Error, CustomStringConvertible {
        var description: String { "control request line longer than \(ControlSocket.maxLineLength) bytes" }
    }

    var scanned = 0

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        guard let newline = view.dropFirst(scanned).firstIndex(of: UInt8(ascii: "\n")) else {
            scanned = view.count
            if view.count > ControlSocket.maxLineLength { throw LineTooLong() }
            return .needMoreData
        }
        let length = newline - view.startIndex
        scanned = 0
        guard var line = buffer.readSlice(length: length) else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: 1)
        if line.readableBytesView.last == UInt8(ascii: "\r") {
            line = line.getSlice(at: line.readerIndex, length: line.readableBytes - 1) ?? line
        }
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        while try decode(context: context, buffer: &buffer) == .continue {}
        if buffer.readableBytes > 0, let rest = buffer.readSlice(length: buffer.readableBytes) {
            context.fireChannelRead(wrapInboundOut(rest))
        }
        return .needMoreData
    }
}
