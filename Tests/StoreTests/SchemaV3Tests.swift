import TestSupport
import Testing

@testable import Store

/// Schemas 3 and 4 (the replica column; bodies as `BodyCodec` frames) on a file the previous release wrote (Tests/StoreTests/Fixtures/README.md): the
/// migration keeps every record readable as it was, and new, compressed records live beside the old ones.
@Suite("Schemas 3 and 4: a file of schema v2 migrates, old and new records coexist")
struct SchemaV3Tests {
    static let fixture = String(#filePath.dropLast("SchemaV3Tests.swift".utf8.count)) + "Fixtures/schema-v2.sqlite"

    /// The fixture's records, newest first: (id, status, device, codes, request size, response size).
    static let records: [(Int64, Int, String?, [String], Int, Int)] = [
        (12, 200, "iphone-16", ["concurrent-presentation"], 138, 1772),
        (11, 200, "ipad-pro-13", [], 161, 1027),
        (10, 200, "iphone-16", [], 117, 1221),
        (9, 422, "test-phone", [], 286, 315),
        (8, 200, "iphone-duo", ["chained-modal", "popover-adapted", "split-follows-fold"], 642, 3644),
        (7, 422, nil, [], 42, 419),
        (6, 422, "iphone-16", [], 86, 341),
        (5, 200, nil, ["unknown-field", "chained-modal"], 460, 2244),
        (4, 422, "test-foldable", [], 266, 318),
        (3, 422, "test-foldable", [], 317, 318),
        (2, 422, "test-phone", [], 286, 315),
        (1, 200, "iphone-duo", ["chained-modal", "popover-adapted", "split-follows-fold"], 642, 3644),
    ]

    /// A copy of the fixture in `dir`, and its bodies as the previous release stored them, read before any
    /// migration.
    static func copyFixture(_ dir: TemporaryDirectory) throws -> (path: String, bodies: [Int64: ([UInt8], [UInt8])]) {
        let bytes = try #require(readFile(fixture), "missing \(fixture)")
        let path = dir.file("hinge.sqlite")
        writeFile(path, bytes)
        let db = try rawConnection(path)
        defer { db.close() }
        #expect(try db.scalarInt("SELECT max(version) FROM schema_migrations") == 2)
        var bodies: [Int64: ([UInt8], [UInt8])] = [:]
        try db.withStatement("SELECT request_id, request, response FROM request_bodies") { (s) throws(StoreError) in
            while try s.step() { bodies[s.int64(0)] = (s.blob(1), s.blob(2)) }
        }
        return (path, bodies)
    }

    @Test func theMigratedFileListsFiltersAndReadsEveryOldRecordAsItWasStored() throws {
        let dir = TemporaryDirectory()
        let (path, bodies) = try SchemaV3Tests.copyFixture(dir)
        #expect(bodies.count == 12)
        let store = try Store.open(.init(path: path))
        defer { store.close() }
        let log = store.requestLog
        let page = try log.list(RecordQuery(limit: 50))
        #expect(page.next == nil)
        #expect(page.items.map(\.id.rawValue) == SchemaV3Tests.records.map(\.0))
        for (item, expected) in zip(page.items, SchemaV3Tests.records) {
            #expect(item.status == expected.1 && item.device == expected.2 && item.codes == expected.3, "\(item.id)")
            #expect(item.requestSize == expected.4 && item.responseSize == expected.5, "\(item.id)")
            #expect(!item.requestTruncated && !item.responseTruncated && item.path == "/v1/resolve")
        }
        #expect(try log.list(RecordQuery(code: "chained-modal")).items.map(\.id.rawValue) == [8, 5, 1])
        #expect(try log.list(RecordQuery(device: "iphone-16")).items.map(\.id.rawValue) == [12, 10, 6])
        #expect(try log.list(RecordQuery(status: 422, limit: 3)).items.map(\.id.rawValue) == [9, 7, 6])
        for (id, (request, response)) in bodies {
            let detail = try #require(try log.record(id: RecordID(rawValue: id)))
            #expect(detail.requestBody == request && detail.responseBody == response, "record \(id)")
            #expect(detail.requestBody.count == detail.summary.requestSize, "record \(id)")
        }
        let typical = try #require(try log.record(id: RecordID(rawValue: 1)))
        #expect(String(decoding: typical.requestBody, as: UTF8.self).hasPrefix(#"{"device": "iphone-duo""#))
        #expect(String(decoding: typical.responseBody, as: UTF8.self).contains(#""placements""#))

        let (version, formats, integrity) = try store.performOnSQLiteWriter { db in
            Result { () throws(StoreError) in
                (
                    try db.scalarInt("SELECT max(version) FROM schema_migrations"),
                    try db.scalarText("SELECT group_concat(DISTINCT body_format) FROM request_bodies"),
                    try db.scalarText("PRAGMA integrity_check")
                )
            }
        }.get()
        #expect(version == Int64(Schema.latestVersion) && formats == "0" && integrity == "ok")
    }

    @Test func newCompressedRecordsCoexistWithTheOldOnes() throws {
        let dir = TemporaryDirectory()
        let (path, bodies) = try SchemaV3Tests.copyFixture(dir)
        let store = try Store.open(.init(path: path))
        let log = store.requestLog
        let (oldRequest, oldResponse) = try #require(bodies[1])
        let counter = CompletionCounter()
        counter.expect(2)
        // The old typical record's bodies again, now compressed; and a small one.
        log.append(
            record(device: "iphone-duo", codes: ["chained-modal"], body: oldRequest, response: oldResponse),
            completion: counter.completion)
        log.flush()
        log.append(record(device: "iphone-16", status: 422), completion: counter.completion)
        #expect(counter.wait())
        let newIDs = counter.successes.withLock { $0 }.map(\.rawValue).sorted()
        #expect(newIDs == [13, 14])
        #expect(try log.list(RecordQuery(limit: 3)).items.map(\.id.rawValue) == [14, 13, 12])
        #expect(try log.list(RecordQuery(code: "chained-modal")).items.map(\.id.rawValue) == [13, 8, 5, 1])
        #expect(try log.list(RecordQuery(device: "iphone-16", status: 422)).items.map(\.id.rawValue) == [14, 6])
        let stored = try store.performOnSQLiteWriter { db in
            Result { () throws(StoreError) in
                try db.scalarText(
                    "SELECT group_concat(request_id || ':' || body_format || ':' || length(response), ' ') "
                        + "FROM request_bodies WHERE request_id IN (1, 13) ORDER BY request_id")
            }
        }.get()
        let parts = try #require(stored).split(separator: " ").map { $0.split(separator: ":").map { Int($0) ?? -1 } }
        #expect(parts.count == 2 && parts[0] == [1, 0, 3644] && parts[1][0...1] == [13, 1])
        #expect(parts[1][2] < 3644 / 2, "compressed response: \(parts[1][2]) B")
        store.close()

        // Reopened (no migration left to run), the old and the new read back alike.
        let reopened = try Store.open(.init(path: path))
        defer { reopened.close() }
        let old = try #require(try reopened.requestLog.record(id: RecordID(rawValue: 1)))
        let new = try #require(try reopened.requestLog.record(id: RecordID(rawValue: 13)))
        #expect(old.requestBody == oldRequest && old.responseBody == oldResponse)
        #expect(new.requestBody == oldRequest && new.responseBody == oldResponse)
        #expect(try reopened.requestLog.count() == 14)
    }
}
