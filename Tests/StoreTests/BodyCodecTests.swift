import CLinux
import JSON
import LayoutEngine
import TestSupport
import Testing

@testable import Store

/// `BodyCodec`: the frames of the request log's bodies (docs/store.md#body-codec) and the system compressors
/// behind them, loaded with dlopen.
@Suite("BodyCodec: body frames, lz4 and zstd loaded at run time")
struct BodyCodecTests {
    /// A resolution-like JSON body of about `n` bytes (repetitive, as real responses are).
    static func jsonBody(_ n: Int) -> [UInt8] {
        var s = #"{"placements":["#
        var i = 0
        while s.utf8.count < n {
            s += #"{"id":"sheet-\#(i)","frame":{"x":0,"y":\#(460 + i),"width":393,"height":391.5},"dimming":true},"#
            i += 1
        }
        return Array((s + "{}]}").utf8)
    }

    static func randomBody(_ n: Int, seed: UInt64) -> [UInt8] {
        var g = SplitMix64(seed: seed)
        return (0..<n).map { _ in UInt8(truncatingIfNeeded: g.next()) }
    }

    static let codecs: [BodyCodec] = [
        .stored, .lz4(), .lz4(acceleration: 8), .lz4Dictionary(), .lz4Dictionary(acceleration: 8), .lz4Dictionary(1),
        .lz4Dictionary(1, acceleration: 8), .zstd(level: 1), .zstd(level: -5), .zstd(level: 9),
    ]

    @Test func theSystemLibrariesOfAFreshMachineAreLoaded() {
        // liblz4-1 and libzstd1 are installed wherever Hinge runs (README); without them `active` is `.stored`.
        #expect(BodyCodec.isAvailable(.lz4) && BodyCodec.isAvailable(.zstd))
        #expect(BodyCodec.libraryVersion(.zstd)?.hasPrefix("1.") == true)
        #expect(BodyCodec.libraryVersion(.lz4)?.hasPrefix("1.") == true)
        #expect(BodyCodec.libraryVersion(.stored) == nil)
        #expect(BodyCodec.isAvailable(.lz4Dictionary1) && BodyCodec.isAvailable(.lz4Dictionary2))
        #expect(BodyCodec.preferred.active == .lz4Dictionary() && BodyCodec.preferred.tag == .lz4Dictionary2)
        #expect(BodyCodec.lz4Dictionary(1).tag == .lz4Dictionary1)
    }

    @Test(arguments: codecs)
    func everyBodyComesBackByteForByte(codec: BodyCodec) {
        let bodies: [[UInt8]] = [
            [], [0x7B], Array(#"{"ok":true}"#.utf8), BodyCodecTests.jsonBody(63), BodyCodecTests.jsonBody(64),
            BodyCodecTests.jsonBody(3_644), BodyCodecTests.jsonBody(300_000), BodyCodecTests.randomBody(5_000, seed: 7),
            Array(repeating: 0, count: 200_000),
        ]
        for body in bodies {
            let frame = codec.encode(body)
            #expect(BodyCodec.decode(frame, format: .framed) == .success(body), "\(codec) \(body.count) B")
        }
    }

    /// Frames tagged `lz4Dictionary1` and `lz4Dictionary2` refer to these exact bytes: a changed dictionary
    /// would make every stored record of its tag decode wrongly or not at all.
    @Test func theBuiltInDictionariesNeverChange() {
        func fnv(_ bytes: [UInt8]) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a 64
            for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
            return hash
        }
        #expect(lz4Dictionary1Bytes.count == 8_179 && fnv(lz4Dictionary1Bytes) == 0x3fdf_65b7_9361_7104)
        #expect(lz4Dictionary2Bytes.count == 34_397 && fnv(lz4Dictionary2Bytes) == 0x64ee_c551_fc21_7c4b)
    }

    /// Dictionary 2 holds the service's own answers to the golden scenes: a resolution on a built-in device
    /// shares its keys, its environment block and its diagnostics' wording with them, and compresses to fewer
    /// bytes than against dictionary 1 (this scene's answer is not among them).
    @Test func dictionaryTwoStoresAResolutionInFewerBytesThanDictionaryOne() throws {
        let text =
            #"{"device":"iphone-duo","posture":"halfOpened","presentations":[{"id":"e","kind":"sheet","#
            + #""detents":["medium","large"]},{"id":"p","kind":"popover","presentedFrom":"e","#
            + #""anchor":{"x":100,"y":200,"width":44,"height":44}}]}"#
        let scene = Array(text.utf8)
        let document = try JSONParser.document(scene)
        let catalog = StaticDeviceCatalog(BuiltInDevices.all)
        let decoded = try #require(Scene.decode(document.root, catalog: catalog).scene)
        let resolution = LayoutEngine.resolve(decoded).encoded
        try #require(resolution.count > 1_500)
        for body in [scene, resolution] {
            let one = BodyCodec.lz4Dictionary(1).encode(body)
            let two = BodyCodec.lz4Dictionary().encode(body)
            #expect(one.first == 3 && two.first == 4)
            #expect(two.count < one.count, "\(body.count) B: \(two.count) against \(one.count)")
            #expect(BodyCodec.decode(two, format: .framed) == .success(body))
        }
    }

    @Test(arguments: [BodyCodec.lz4(), .lz4Dictionary(), .lz4Dictionary(1), .zstd(level: 1)])
    func aJSONBodyIsCompressedAndAnIncompressibleOneIsStored(codec: BodyCodec) throws {
        let json = BodyCodecTests.jsonBody(3_644)
        let frame = codec.encode(json)
        #expect(frame.first == codec.tag.rawValue)
        #expect(frame.count < json.count / 3, "\(frame.count) B")
        let random = BodyCodecTests.randomBody(3_000, seed: 1)
        let stored = codec.encode(random)
        // Stored: the tag, the length 3000 as LEB128 (0xB8 0x17), the bytes.
        #expect(Array(stored.prefix(3)) == [0, 0xB8, 0x17] && Array(stored.dropFirst(3)) == random)
    }

    /// Bodies of up to 4 KB (the typical request and response) are compressed against the dictionary where it
    /// is, through the frame API, instead of from a 16 KB copy of its prepared state; the block is the same
    /// format, so records written either way decode alike.
    @Test(arguments: [BodyCodec.Tag.lz4Dictionary1, .lz4Dictionary2])
    func bodiesOfUpTo4KBAreCompressedAgainstTheDictionaryWithoutCopyingIt(tag: BodyCodec.Tag) throws {
        let dictionary = try #require(tag.dictionary?.pointer)
        let codec = BodyCodec.lz4Dictionary(tag.dictionaryNumber ?? 0)
        func attached(_ body: [UInt8], acceleration: Int32 = 1) -> ([UInt8], Int) {
            var block: UnsafePointer<UInt8>? = nil
            let n = body.withUnsafeBytes {
                hinge_lz4_compress_dictionary_block(dictionary, $0.baseAddress, $0.count, acceleration, &block)
            }
            guard n > 0, let block else { return ([], n) }
            return (Array(UnsafeBufferPointer(start: block, count: n)), n)
        }
        func decoded(_ block: [UInt8], length: Int) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: length)
            let n = block.withUnsafeBytes { src in
                out.withUnsafeMutableBytes {
                    hinge_lz4_decompress_dictionary(dictionary, src.baseAddress, src.count, $0.baseAddress, $0.count)
                }
            }
            return n == length ? out : []
        }
        for size in [64, 651, 3_644, 4_096] {
            let body = BodyCodecTests.jsonBody(size).prefix(size).map { $0 }
            for acceleration: Int32 in [1, 8] {
                let (block, n) = attached(body, acceleration: acceleration)
                #expect(n > 0 && n < body.count * 3 / 4, "\(size) B, acceleration \(acceleration): \(n)")
                #expect(decoded(block, length: body.count) == body, "\(size) B, acceleration \(acceleration)")
            }
            // The codec's frame carries that block (the tag, the length, the payload), in an array of its size.
            let frame = codec.encode(body)
            #expect(frame.first == tag.rawValue)
            let header = 1 + BodyCodec.varintLength(body.count)
            #expect(Array(frame.dropFirst(header)) == attached(body).0, "\(size) B")
            #expect(frame.capacity < frame.count + 32, "\(size) B: \(frame.count) in \(frame.capacity)")
            // The same block through the copying entry point.
            var copy = [UInt8](repeating: 0, count: hinge_lz4_bound(body.count))
            let copied = body.withUnsafeBytes { src in
                copy.withUnsafeMutableBytes {
                    hinge_lz4_compress_dictionary(dictionary, src.baseAddress, src.count, $0.baseAddress, $0.count, 1)
                }
            }
            #expect(Array(copy.prefix(copied)) == attached(body).0, "\(size) B")
        }
        // Longer bodies, and empty ones, are left to the copying path.
        #expect(attached(BodyCodecTests.jsonBody(4_097).prefix(4_097).map { $0 }).1 == -1)
        #expect(attached([]).1 == -1)
        // Incompressible bytes (LZ4 stores the block raw) save nothing: 0, and the codec stores the body.
        let random = BodyCodecTests.randomBody(3_000, seed: 3)
        #expect(attached(random).1 == 0)
        #expect(codec.encode(random).first == BodyCodec.Tag.stored.rawValue)
        // A long body's frame, compressed into room for the worst case, is copied into an array of its size too.
        let long = codec.encode(BodyCodecTests.jsonBody(300_000))
        #expect(long.capacity < long.count + long.count / 4, "\(long.count) in \(long.capacity)")
    }

    @Test func aSmallBodyIsStoredWithoutTryingACompressor() {
        let body = Array(#"{"device":"iphone-16"}"#.utf8)
        #expect(BodyCodec.zstd(level: 1).encode(body) == [0, UInt8(body.count)] + body)
        #expect(BodyCodec.stored.encode([]) == [0, 0])
    }

    @Test func bodiesAsReceivedAreReturnedAsTheyAre() {
        let body: [UInt8] = [2, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]  // would be a bad frame
        #expect(BodyCodec.decode(body, format: .asReceived) == .success(body))
    }

    @Test func damagedFramesAreRefusedNotTrusted() {
        let json = BodyCodecTests.jsonBody(2_000)
        #expect(json.count >= 2_000 && json.count < 2_100 && json.count & 0x7F < 0x7F)
        let zstd = BodyCodec.zstd(level: 1).encode(json)
        let lz4 = BodyCodec.lz4().encode(json)
        let dictionary = BodyCodec.lz4Dictionary().encode(json)
        let dictionary1 = BodyCodec.lz4Dictionary(1).encode(json)
        // The length after the tag, LEB128 in two bytes.
        let length: [UInt8] = [UInt8(json.count & 0x7F) | 0x80, UInt8(json.count >> 7)]
        let bad: [(String, [UInt8])] = [
            ("empty", []),
            ("unknown tag", [9, 1, 0x41]),
            ("length without end", [0, 0x80, 0x80]),
            ("length above the bound", [1, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]),
            ("stored length differs", [0, 5, 0x41]),
            ("zstd payload cut", Array(zstd.prefix(zstd.count / 2))),
            ("lz4 payload cut", Array(lz4.prefix(lz4.count / 2))),
            ("zstd declares a longer body", [2, length[0] + 1, length[1]] + zstd.dropFirst(3)),
            ("lz4 declares a shorter body", [1, 0x10] + lz4.dropFirst(3)),
            ("lz4 payload garbage", [1, 100] + BodyCodecTests.randomBody(40, seed: 3)),
            ("lz4 with dictionary, cut", Array(dictionary.prefix(dictionary.count / 2))),
            ("lz4 with dictionary, read without it", [1] + dictionary.dropFirst()),
        ]
        #expect(zstd.prefix(3) == [2] + length && lz4.prefix(3) == [1] + length && dictionary.prefix(3) == [4] + length)
        #expect(Array(dictionary1.prefix(3)) == [3] + length)
        for (name, frame) in bad {
            guard case .failure = BodyCodec.decode(frame, format: .framed) else {
                Issue.record("\(name): decoded")
                continue
            }
        }
    }

    @Test func aCodecWhoseLibraryIsMissingStoresUncompressedAndSaysSo() {
        let missing: (BodyCodec.Tag) -> Bool = { $0 == .stored }
        #expect(BodyCodec.zstd(level: 3).active(where: missing) == .stored)
        #expect(BodyCodec.lz4().active(where: missing) == .stored)
        #expect(BodyCodec.zstd(level: 3).active(where: { _ in true }) == .zstd(level: 3))
        #expect(
            BodyCodec.zstd(level: 1).startupDescription(version: { _ in nil })
                == "bodies uncompressed (libzstd.so.1 not found)")
        #expect(
            BodyCodec.lz4().startupDescription(version: { _ in "1.9.4" }) == "bodies lz4, liblz4.so.1 1.9.4")
        #expect(BodyCodec.stored.startupDescription == "bodies uncompressed")
        #expect(
            BodyCodec.DecodeFailure.unavailable(.zstd).description
                == "the body is zstd-compressed and libzstd.so.1 is not loaded")
    }

    @Test(arguments: [BodyCodec.stored, .lz4(), .lz4Dictionary(), .lz4Dictionary(1), .zstd(level: 1)])
    func theStoreFramesNewBodiesAndReadsThemBack(codec: BodyCodec) throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        let request = BodyCodecTests.jsonBody(652)
        let response = BodyCodecTests.jsonBody(3_644)
        let store = try Store.open(.init(path: path, bodyCodec: codec))
        defer { store.close() }
        #expect(store.bodyCodec == codec)
        let counter = CompletionCounter()
        counter.expect(1)
        store.requestLog.append(record(body: request, response: response), completion: counter.completion)
        #expect(counter.wait())
        let id = try #require(counter.successes.withLock { $0.first })
        let detail = try #require(try store.requestLog.record(id: id))
        #expect(detail.requestBody == request && detail.responseBody == response)
        #expect(detail.summary.requestSize == request.count && detail.summary.responseSize == response.count)
        let (format, stored) = try store.performOnSQLiteWriter { db in
            Result { () throws(StoreError) in
                (
                    try db.scalarInt("SELECT body_format FROM request_bodies WHERE request_id = ?", .int(id.rawValue)),
                    try db.scalarInt(
                        "SELECT length(request) + length(response) FROM request_bodies WHERE request_id = ?",
                        .int(id.rawValue))
                )
            }
        }.get()
        #expect(format == 1)
        let storedBytes = Int(try #require(stored))
        if codec == .stored {
            #expect(storedBytes == request.count + response.count + 6)  // two tags, two 2-byte lengths
        } else {
            #expect(storedBytes < (request.count + response.count) / 3, "\(storedBytes) B")
        }
    }

    /// A database whose records were framed against dictionary 1 reads them back after the store writes new
    /// records against dictionary 2: the tag of each frame names its dictionary.
    @Test func recordsFramedAgainstDictionaryOneStillReadWhenNewOnesUseDictionaryTwo() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        let bodies = [
            (BodyCodecTests.jsonBody(652), BodyCodecTests.jsonBody(3_644)),
            (BodyCodecTests.jsonBody(700), BodyCodecTests.jsonBody(2_900)),
        ]
        var ids: [RecordID] = []
        for (codec, (request, response)) in zip([BodyCodec.lz4Dictionary(1), .preferred], bodies) {
            let store = try Store.open(.init(path: path, bodyCodec: codec))
            let counter = CompletionCounter()
            counter.expect(1)
            store.requestLog.append(record(body: request, response: response), completion: counter.completion)
            #expect(counter.wait())
            ids.append(try #require(counter.successes.withLock { $0.first }))
            store.close()
        }
        let store = try Store.open(.init(path: path))
        defer { store.close() }
        for (id, (request, response)) in zip(ids, bodies) {
            let detail = try #require(try store.requestLog.record(id: id))
            #expect(detail.requestBody == request && detail.responseBody == response)
        }
        let tags = try store.performOnSQLiteWriter { db in
            Result { () throws(StoreError) in
                try db.scalarText(
                    "SELECT group_concat(hex(substr(response, 1, 1)), ',') FROM "
                        + "(SELECT response FROM request_bodies ORDER BY request_id)")
            }
        }.get()
        #expect(tags == "03,04")
    }

    @Test func aDamagedStoredBodyIsACorruptRowNotACrash() throws {
        let dir = TemporaryDirectory()
        let store = try Store.open(.init(path: dir.file("hinge.sqlite")))
        defer { store.close() }
        let counter = CompletionCounter()
        counter.expect(1)
        store.requestLog.append(
            record(response: BodyCodecTests.jsonBody(3_000)), completion: counter.completion)
        #expect(counter.wait())
        let id = try #require(counter.successes.withLock { $0.first })
        try store.performOnSQLiteWriter { db in
            Result { () throws(StoreError) in
                try db.run(
                    "UPDATE request_bodies SET response = substr(response, 1, 20) WHERE request_id = ?",
                    .int(id.rawValue))
            }
        }.get()
        #expect {
            _ = try store.requestLog.record(id: id)
        } throws: { error in
            guard case .corruptRow(let table, let row, _) = error as? StoreError else { return false }
            return table == "request_bodies" && row == id.description
        }
    }
}
