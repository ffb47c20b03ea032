import CLinux

/// How the request log stores a record's bodies in SQLite (docs/store.md#body-codec).
///
/// A record's row in `request_bodies` says how its two blobs are laid out (`body_format`):
/// - `0` (`BodyFormat.asReceived`): the bytes as received and sent, nothing around them;
/// - `1` (`BodyFormat.framed`): each blob is a frame: one tag byte (`Tag`: stored, lz4, zstd, lz4 with
///   dictionary 1 or 2), the body's length in bytes as an unsigned LEB128 varint, then the payload (the body
///   itself after the `stored` tag, an LZ4 block or a zstd frame otherwise).
///
/// The compressors are the system's liblz4.so.1 and libzstd.so.1, loaded at run time by CLinux's
/// `hinge_codec.c`. Without the library the preferred codec needs, bodies are framed with the `stored` tag
/// (uncompressed) and `BodyCodec.active` says so; a frame the running process cannot decode (a zstd body
/// read where libzstd is missing, or a damaged blob) is reported as `StoreError.corruptRow`.
public struct BodyCodec: Sendable, Equatable, CustomStringConvertible {
    /// The compressor of a frame, as its tag byte.
    public enum Tag: UInt8, Sendable {
        case stored = 0
        case lz4 = 1
        case zstd = 2
        /// An LZ4 block compressed against `lz4Dictionary1Bytes` (`BodyDictionary.swift`).
        case lz4Dictionary1 = 3
        /// An LZ4 block compressed against `lz4Dictionary2Bytes` (`BodyDictionary2.swift`).
        case lz4Dictionary2 = 4

        /// `none`, `lz4`, `zstd`, `lz4-dictionary-1`, `lz4-dictionary-2` (the label of `/metrics`'
        /// `hinge_request_log_body_codec`).
        public var name: String {
            switch self {
            case .stored: return "none"
            case .lz4: return "lz4"
            case .zstd: return "zstd"
            case .lz4Dictionary1: return "lz4-dictionary-1"
            case .lz4Dictionary2: return "lz4-dictionary-2"
            }
        }

        /// The prepared dictionary of an LZ4-with-dictionary tag; nil for the others.
        var dictionary: PreparedDictionary? {
            switch self {
            case .stored, .lz4, .zstd: return nil
            case .lz4Dictionary1: return .lz4Dictionary1
            case .lz4Dictionary2: return .lz4Dictionary2
            }
        }

        /// 1 or 2 for an LZ4-with-dictionary tag.
        var dictionaryNumber: Int? {
            switch self {
            case .stored, .lz4, .zstd: return nil
            case .lz4Dictionary1: return 1
            case .lz4Dictionary2: return 2
            }
        }
    }

    /// The compressor this codec uses for new bodies (`.stored`: none).
    public let tag: Tag
    /// zstd's level or LZ4's acceleration; ignored for `.stored`.
    public let level: Int

    /// Bodies framed uncompressed.
    public static let stored = BodyCodec(tag: .stored, level: 0)
    /// LZ4 block, `LZ4_compress_fast` with this acceleration (1 is LZ4's default).
    public static func lz4(acceleration: Int = 1) -> BodyCodec { BodyCodec(tag: .lz4, level: max(1, acceleration)) }
    /// zstd frame at this level (1 is the fastest of zstd's regular levels; negative levels are faster still).
    public static func zstd(level: Int = 1) -> BodyCodec { BodyCodec(tag: .zstd, level: level) }
    /// LZ4 block against a built-in dictionary of Hinge's own JSON: 2 (`lz4Dictionary2`, the default) or 1
    /// (`lz4Dictionary1`, which records written before dictionary 2 use).
    public static func lz4Dictionary(_ number: Int = 2, acceleration: Int = 1) -> BodyCodec {
        BodyCodec(tag: number == 1 ? .lz4Dictionary1 : .lz4Dictionary2, level: max(1, acceleration))
    }

    /// The store's default: LZ4 against dictionary 2 (BENCHMARKS.md, "Request log": on the typical scene it
    /// stores fewer bytes than zstd level 1 at a sixth of its CPU).
    public static let preferred = BodyCodec.lz4Dictionary()

    private init(tag: Tag, level: Int) {
        self.tag = tag
        self.level = level
    }

    /// Bodies below this many bytes are framed `stored`: a compressor's own header outweighs what it saves.
    static let minimumCompressedSize = 64

    /// The largest body length a frame may declare; a damaged length is refused before any allocation.
    static let maxBodyLength = 1 << 30

    public var description: String {
        switch tag {
        case .stored: return "none"
        case .lz4: return level == 1 ? "lz4" : "lz4 (acceleration \(level))"
        case .zstd: return "zstd (level \(level))"
        case .lz4Dictionary1, .lz4Dictionary2:
            let name = "lz4 with dictionary \(tag.dictionaryNumber ?? 0)"
            return level == 1 ? name : "\(name) (acceleration \(level))"
        }
    }

    /// Whether this process can compress and decompress with `tag` (its library was found and loaded).
    public static func isAvailable(_ tag: Tag) -> Bool {
        switch tag {
        case .stored: return true
        case .lz4: return hinge_lz4_available() != 0
        case .zstd: return hinge_zstd_available() != 0
        case .lz4Dictionary1, .lz4Dictionary2: return tag.dictionary?.pointer != nil
        }
    }

    /// The system library's version (`"1.5.4"`), nil when it is not loaded or for `.stored`.
    public static func libraryVersion(_ tag: Tag) -> String? {
        let v: UInt32
        switch tag {
        case .stored: return nil
        case .lz4, .lz4Dictionary1, .lz4Dictionary2: v = hinge_lz4_version()
        case .zstd: v = hinge_zstd_version()
        }
        guard v > 0 else { return nil }
        return "\(v / 10000).\(v / 100 % 100).\(v % 100)"
    }

    /// `self` when its library is loaded, else `.stored`: what a store opened with this preference writes.
    public var active: BodyCodec { active(where: BodyCodec.isAvailable) }

    func active(where available: (Tag) -> Bool) -> BodyCodec { available(tag) ? self : .stored }

    /// The name of the codec's system library (`libzstd.so.1`); nil for `.stored`.
    public var libraryName: String? {
        switch tag {
        case .stored: return nil
        case .lz4, .lz4Dictionary1, .lz4Dictionary2: return "liblz4.so.1"
        case .zstd: return "libzstd.so.1"
        }
    }

    /// What the start-up line says about bodies when `self` is the preference: `bodies lz4 with dictionary 2,
    /// liblz4.so.1 1.9.4`, or `bodies uncompressed (liblz4.so.1 not found)` when its library is not loaded.
    public var startupDescription: String { startupDescription(version: BodyCodec.libraryVersion) }

    func startupDescription(version: (Tag) -> String?) -> String {
        guard let library = libraryName else { return "bodies uncompressed" }
        guard let version = version(tag) else { return "bodies uncompressed (\(library) not found)" }
        return "bodies \(description), \(library) \(version)"
    }

    // MARK: Frames

    /// The frame of `body`: compressed with this codec when that makes it smaller, else stored.
    public func encode(_ body: [UInt8]) -> [UInt8] {
        if tag != .stored, body.count >= BodyCodec.minimumCompressedSize, let frame = compress(body) { return frame }
        var out: [UInt8] = []
        out.reserveCapacity(body.count + 1 + BodyCodec.varintLength(body.count))
        out.append(Tag.stored.rawValue)
        BodyCodec.appendVarint(body.count, to: &out)
        out.append(contentsOf: body)
        return out
    }

    /// The compressed frame, or nil when compression failed or saved nothing. Its array holds just the frame:
    /// the writer's queue bounds the bytes of pending records by their frames' counts.
    private func compress(_ body: [UInt8]) -> [UInt8]? {
        if let dictionary = tag.dictionary {
            // Up to 4 KB: the block, compressed in a buffer of this thread, is copied into an array of its size.
            var block: UnsafePointer<UInt8>? = nil
            let n = body.withUnsafeBytes {
                hinge_lz4_compress_dictionary_block(
                    dictionary.pointer, $0.baseAddress, $0.count, Int32(level), &block)
            }
            if n == 0 { return nil }
            if n > 0, let block {
                return frame(length: body.count, capacity: n) { out, _ in
                    out.update(from: block, count: n)
                    return n
                }
            }
        }
        let bound = tag == .zstd ? hinge_zstd_bound(body.count) : hinge_lz4_bound(body.count)
        guard bound > 0 else { return nil }
        let compressed = body.withUnsafeBytes { src in
            frame(length: body.count, capacity: bound) { out, capacity in
                switch tag {
                case .stored: return 0
                case .lz4: return hinge_lz4_compress(src.baseAddress, src.count, out, capacity, Int32(level))
                case .zstd: return hinge_zstd_compress(src.baseAddress, src.count, out, capacity, Int32(level))
                case .lz4Dictionary1, .lz4Dictionary2:
                    return hinge_lz4_compress_dictionary(
                        tag.dictionary?.pointer, src.baseAddress, src.count, out, capacity, Int32(level))
                }
            }
        }
        guard let compressed, compressed.count < body.count + 1 + BodyCodec.varintLength(body.count) else {
            return nil
        }
        // Written into room for the worst case: copied out when that room is mostly unused (`Array(slice)` of a
        // whole array would keep its buffer).
        guard compressed.capacity > compressed.count + compressed.count / 4 else { return compressed }
        return [UInt8](unsafeUninitializedCapacity: compressed.count) { buffer, count in
            count = buffer.initialize(fromContentsOf: compressed)
        }
    }

    /// A frame of this codec's tag for a body of `length` bytes whose payload `write` puts at the pointer it
    /// gets (room for `capacity` bytes) and counts; nil when it wrote nothing.
    private func frame(
        length: Int, capacity: Int, _ write: (UnsafeMutablePointer<UInt8>, Int) -> Int
    ) -> [UInt8]? {
        let header = 1 + BodyCodec.varintLength(length)
        let out = [UInt8](unsafeUninitializedCapacity: header + capacity) { buffer, count in
            guard let base = buffer.baseAddress else {
                count = 0
                return
            }
            base[0] = tag.rawValue
            var n = length
            var i = 1
            while n >= 0x80 {
                base[i] = UInt8(n & 0x7F) | 0x80
                n >>= 7
                i += 1
            }
            base[i] = UInt8(n)
            let written = write(base + header, capacity)
            count = written > 0 ? header + written : 0
        }
        return out.isEmpty ? nil : out
    }

    /// The body a blob of `format` holds; nil when it cannot be decoded (a damaged frame, or a compressor
    /// this process has not loaded). `.asReceived` blobs are the body itself.
    public static func decode(_ blob: [UInt8], format: BodyFormat) -> Result<[UInt8], DecodeFailure> {
        guard format == .framed else { return .success(blob) }
        return blob.withUnsafeBytes { decode(frame: $0) }
    }

    /// Why a frame could not be decoded.
    public enum DecodeFailure: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        case unavailable(Tag)

        public var description: String {
            switch self {
            case .malformed(let why): return "malformed body frame: \(why)"
            case .unavailable(let tag):
                return tag == .zstd
                    ? "the body is zstd-compressed and libzstd.so.1 is not loaded"
                    : "the body is LZ4-compressed and liblz4.so.1 is not loaded"
            }
        }
    }

    static func decode(frame: UnsafeRawBufferPointer) -> Result<[UInt8], DecodeFailure> {
        guard let first = frame.first else { return .failure(.malformed("empty")) }
        guard let tag = Tag(rawValue: first) else { return .failure(.malformed("unknown tag \(first)")) }
        var index = 1
        guard let length = readVarint(frame, at: &index), length <= maxBodyLength else {
            return .failure(.malformed("bad length"))
        }
        let payload = UnsafeRawBufferPointer(rebasing: frame[index...])
        switch tag {
        case .stored:
            guard payload.count == length else { return .failure(.malformed("stored length differs")) }
            return .success(Array(payload))
        case .lz4, .zstd, .lz4Dictionary1, .lz4Dictionary2:
            guard isAvailable(tag) else { return .failure(.unavailable(tag)) }
            if length == 0 { return .success([]) }
            var ok = false
            let out = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
                let n: Int
                switch tag {
                case .stored: n = -1
                case .lz4: n = hinge_lz4_decompress(payload.baseAddress, payload.count, buffer.baseAddress, length)
                case .zstd: n = hinge_zstd_decompress(payload.baseAddress, payload.count, buffer.baseAddress, length)
                case .lz4Dictionary1, .lz4Dictionary2:
                    n = hinge_lz4_decompress_dictionary(
                        tag.dictionary?.pointer, payload.baseAddress, payload.count, buffer.baseAddress, length)
                }
                ok = n == length
                count = ok ? length : 0
            }
            return ok ? .success(out) : .failure(.malformed("the payload does not decompress to \(length) bytes"))
        }
    }

    static func varintLength(_ n: Int) -> Int {
        var n = n
        var length = 1
        while n >= 0x80 {
            n >>= 7
            length += 1
        }
        return length
    }

    static func appendVarint(_ n: Int, to out: inout [UInt8]) {
        var n = n
        while n >= 0x80 {
            out.append(UInt8(n & 0x7F) | 0x80)
            n >>= 7
        }
        out.append(UInt8(n))
    }

    /// An unsigned LEB128 varint of at most 5 bytes (lengths below 2^35), advancing `index`.
    static func readVarint(_ bytes: UnsafeRawBufferPointer, at index: inout Int) -> Int? {
        var value = 0
        var shift = 0
        while index < bytes.count, shift < 35 {
            let b = bytes[index]
            index += 1
            value |= Int(b & 0x7F) << shift
            if b < 0x80 { return value }
            shift += 7
        }
        return nil
    }
}

/// How a record's bodies are laid out in `request_bodies` (the `body_format` column).
public enum BodyFormat: Int64, Sendable {
    /// The bodies as received and sent (records written before the `body_format` column existed).
    case asReceived = 0
    /// Each body is a `BodyCodec` frame.
    case framed = 1
}

/// A dictionary prepared once by the C side (`hinge_lz4_dictionary_create`, which copies the bytes and keeps
/// them, with the LZ4 stream that loaded them and the frame API's prepared dictionary, for the process's life);
/// nil when liblz4.so.1 is not loaded.
struct PreparedDictionary: @unchecked Sendable {
    // Sendable proof: the pointer is written once, at initialisation (a global `let`, initialised once by
    // Swift), and the C side only reads what it points to afterwards: every compression writes to a stream or
    // frame context of its own thread, reading the prepared dictionary.
    let pointer: UnsafeMutableRawPointer?

    static let lz4Dictionary1 = PreparedDictionary(
        pointer: lz4Dictionary1Bytes.withUnsafeBytes { hinge_lz4_dictionary_create($0.baseAddress, $0.count) })
    static let lz4Dictionary2 = PreparedDictionary(
        pointer: lz4Dictionary2Bytes.withUnsafeBytes { hinge_lz4_dictionary_create($0.baseAddress, $0.count) })
}
