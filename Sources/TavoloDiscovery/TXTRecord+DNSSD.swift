import CDNSSD

/// Parses TXT bytes with the dns_sd library (`TXTRecordGetItemAtIndex`); used by tests to cross-check
/// `TXTRecord.decode`. Keys without a value decode to "" like `TXTRecord.decode` does.
enum DNSSDTXT {
    static func parse(_ bytes: [UInt8]) -> [String: String] {
        precondition(dnssdPrepared)
        guard bytes.count <= TXTRecord.maxRecordLength else { return [:] }
        return bytes.withUnsafeBytes { buffer -> [String: String] in
            let length = UInt16(buffer.count)
            var result: [String: String] = [:]
            for index in 0..<TXTRecordGetCount(length, buffer.baseAddress) {
                var key = [CChar](repeating: 0, count: 256)
                var valueLength: UInt8 = 0
                var value: UnsafeRawPointer?
                let error = TXTRecordGetItemAtIndex(
                    length, buffer.baseAddress, index, UInt16(key.count), &key, &valueLength, &value)
                guard error == kDNSServiceErr_NoError else { continue }
                let keyString = String(decoding: key.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                let valueBytes = value.map { UnsafeRawBufferPointer(start: $0, count: Int(valueLength)) }
                result[keyString] = valueBytes.map { String(decoding: $0, as: UTF8.self) } ?? ""
            }
            return result
        }
    }
}
