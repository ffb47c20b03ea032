/// Serializes responses: status line, `Server`, `Date` (formatted once per second), the handler's headers
/// (minus the ones the server manages), `Content-Length`, `Connection`, body. One per event loop.
struct ResponseEncoder {
    private let serverLine: [UInt8]
    private var dateSecond: Int64 = -1
    private var dateLine: [UInt8] = []
    /// Where `encode` writes a head (one per loop, like the encoder).
    private let scratch = ScratchBuffer(capacity: 4096)

    private static let statusPrefix: [UInt8] = Array("HTTP/1.1 ".utf8)
    private static let contentLengthPrefix: [UInt8] = Array("Content-Length: ".utf8)
    private static let connectionClose: [UInt8] = Array("Connection: close\r\n".utf8)
    private static let connectionKeepAlive: [UInt8] = Array("Connection: keep-alive\r\n".utf8)
    static let continueBytes: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    init(serverName: String) {
        serverLine = Array("Server: \(serverName)\r\n".utf8)
    }

    /// Re-formats the `Date` line when the wall-clock second (`wallSeconds`, since the epoch) changed.
    mutating func refreshDate(wallSeconds s: Int64) {
        if s != dateSecond {
            dateSecond = s
            dateLine = Array("Date: ".utf8) + httpDate(epochSeconds: s) + [13, 10]
        }
    }

    /// Appends `response` to `out`. `head`: no body (a HEAD request); `close`: `Connection: close`;
    /// `version10`: an HTTP/1.0 client kept alive is told so.
    ///
    /// The head is written into the loop's scratch buffer with plain stores and appended to `out` in one copy,
    /// then the body in another: two checked appends per response instead of one per piece.
    func encode(_ response: HTTPResponse, into out: inout [UInt8], head: Bool, close: Bool, version10: Bool) {
        var status = response.status.code
        if status < 200 || status > 999 { status = 500 }
        let noBody = status == 204 || status == 304
        out.reserveCapacity(out.count + 160 + response.body.count)
        var w = HeadWriter(scratch)
        w.put(Self.statusPrefix)
        w.putDecimal(status)
        w.put(32)
        w.put(HTTPStatus.reasonPhrase(status))
        w.put(13, 10)
        w.put(serverLine)
        w.put(dateLine)
        for field in response.headers {
            if Self.isManagedHeader(field.name) { continue }
            w.put(field.name)
            w.put(58, 32)
            w.put(field.value)
            w.put(13, 10)
        }
        if status != 204 {
            w.put(Self.contentLengthPrefix)
            w.putDecimal(noBody ? 0 : response.body.count)
            w.put(13, 10)
        }
        if close {
            w.put(Self.connectionClose)
        } else if version10 {
            w.put(Self.connectionKeepAlive)
        }
        w.put(13, 10)
        w.flush(into: &out)
        if !head && !noBody { out.append(contentsOf: response.body) }
    }

    /// Headers the server writes itself; a handler's copies are dropped.
    private static func isManagedHeader(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: return asciiCaseInsensitiveEquals(name, "date")
        case 6: return asciiCaseInsensitiveEquals(name, "server")
        case 10: return asciiCaseInsensitiveEquals(name, "connection")
        case 14: return asciiCaseInsensitiveEquals(name, "content-length")
        case 17: return asciiCaseInsensitiveEquals(name, "transfer-encoding")
        default: return false
        }
    }
}

/// A fixed block of memory owned by one event loop's encoder.
final class ScratchBuffer {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }
}

/// Writes a response head into a `ScratchBuffer`; a head longer than the buffer goes on in `spill` (an array),
/// so any head is written whole.
struct HeadWriter {
    private let buffer: ScratchBuffer
    private var count = 0
    private var spill: [UInt8] = []

    init(_ buffer: ScratchBuffer) { self.buffer = buffer }

    /// Makes room for `n` more bytes in the scratch buffer; false when they go to `spill` instead.
    @inline(__always) private mutating func room(_ n: Int) -> Bool {
        if spill.isEmpty && count &+ n <= buffer.capacity { return true }
        if spill.isEmpty { spill = Array(UnsafeBufferPointer(start: buffer.base, count: count)) }
        return false
    }

    @inline(__always) mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        if room(bytes.count) {
            (buffer.base + count).update(from: source, count: bytes.count)
            count &+= bytes.count
        } else {
            spill.append(contentsOf: bytes)
        }
    }

    @inline(__always) mutating func put(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { put($0) } }

    @inline(__always) mutating func put(_ s: String) {
        var s = s
        s.withUTF8 { put($0) }
    }

    @inline(__always) mutating func put(_ byte: UInt8) {
        if room(1) {
            buffer.base[count] = byte
            count &+= 1
        } else {
            spill.append(byte)
        }
    }

    @inline(__always) mutating func put(_ a: UInt8, _ b: UInt8) {
        put(a)
        put(b)
    }

    /// A non-negative decimal (statuses, lengths); a negative value is written with its sign.
    mutating func putDecimal(_ value: Int) {
        if value < 0 { put(45) }
        var n = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // up to 24 digits, most significant last
        var k = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[k] = UInt8(48 + n % 10)
                n /= 10
                k += 1
            } while n > 0
            while k > 0 {
                k -= 1
                put(d[k])
            }
        }
    }

    /// Appends what was written to `out`.
    mutating func flush(into out: inout [UInt8]) {
        if spill.isEmpty {
            out.append(contentsOf: UnsafeBufferPointer(start: buffer.base, count: count))
        } else {
            out.append(contentsOf: spill)
        }
    }
}
