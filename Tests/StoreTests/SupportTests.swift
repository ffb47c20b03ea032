import CLinux
import CSQLite
import Dispatch
import JSON
import LayoutEngine
import Synchronization
import TestSupport
import Testing

@testable import Store

@Suite("Timestamps, entity tags, SQL hygiene")
struct SupportTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"), (1_738_314_307_042, "2025-01-31T09:05:07.042Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"), (-1, "1969-12-31T23:59:59.999Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ])
    func iso8601RoundTrips(ms: Int64, text: String) {
        #expect(Timestamp(millisecondsSinceEpoch: ms).iso8601 == text)
        #expect(Timestamp(iso8601: text)?.millisecondsSinceEpoch == ms)
    }

    @Test func iso8601ParsingAcceptsZonesAndRejectsNonsense() {
        #expect(Timestamp(iso8601: "2025-01-31")?.iso8601 == "2025-01-31T00:00:00.000Z")
        #expect(Timestamp(iso8601: "2025-01-31T10:05+01:00")?.iso8601 == "2025-01-31T09:05:00.000Z")
        #expect(Timestamp(iso8601: "2025-01-31T09:05:07.123456Z")?.iso8601 == "2025-01-31T09:05:07.123Z")
        for bad in [
            "", "2025-02-30", "2025-13-01", "2025-01-31T09:05:07", "2025-01-31T25:00Z", "2025-01-31T09:05:07.Z", "x",
        ] {
            #expect(Timestamp(iso8601: bad) == nil, "\(bad)")
        }
    }

    @Test func entityTagsAndWritePreconditions() {
        let b = EntityTag(quoted: "\"b\"")
        #expect(WritePrecondition.matching([EntityTag(quoted: "\"a\""), b]).holds(current: b))
        #expect(!WritePrecondition.matching([]).holds(current: b))
        #expect(!WritePrecondition.matching([b]).holds(current: nil))
        #expect(WritePrecondition.anyCurrent.holds(current: EntityTag(quoted: "\"x\"")))
        #expect(!WritePrecondition.anyCurrent.holds(current: nil))
        #expect(WritePrecondition.unconditional.holds(current: nil))
        #expect(EntityTag(canonicalBytes: []).quoted == "\"cbf29ce484222325\"")
    }

    @Test func recordIDsParseOnlyPositiveDecimals() {
        #expect(RecordID("42")?.rawValue == 42)
        for bad in ["", "0", "-1", "4x", "+4", "99999999999999999999"] { #expect(RecordID(bad) == nil, "\(bad)") }
    }

    /// Security: values only ever travel as bound parameters. No SQL text in the Store's sources is built
    /// by interpolation; the only concatenations are of constant fragments (SQLiteRecords.listSQL) and, for an
    /// integer PRAGMA computed at run time, of a `StaticString` name and an `Int` (`Connection.setPragma`).
    @Test func sqlIsNeverBuiltByInterpolation() throws {
        let sources = String(#filePath.dropLast("Tests/StoreTests/SupportTests.swift".count)) + "Sources/Store/"
        let keywords = ["SELECT ", "INSERT ", "UPDATE ", "DELETE ", "PRAGMA ", "CREATE ", "WHERE "]
        var checked = 0
        for name in [
            "Connection.swift", "DatabasePool.swift", "DeviceProfileStore.swift", "RequestLog.swift", "Schema.swift",
            "Store.swift", "StoreWriter.swift", "SQLiteEngine.swift", "SQLiteRecords.swift", "SQLiteProfiles.swift",
            "PostgresEngine.swift", "PostgresRecords.swift", "PostgresProfiles.swift", "PostgresSchema.swift",
            "PostgresListener.swift", "PostgresConnection.swift",
        ] {
            let text = try #require(readFile(sources + name).map { String(decoding: $0, as: UTF8.self) })
            for line in text.split(separator: "\n") where keywords.contains(where: { line.contains($0) }) {
                #expect(!line.contains("\\("), "\(name): \(line)")
                checked += 1
            }
        }
        #expect(checked > 20)
    }

    @Test func integerPragmasAreSetAndReadBack() throws {
        let db = try Connection(path: ":memory:", readOnly: false, busyTimeoutMillis: 100)
        defer { db.close() }
        try db.setPragma("journal_size_limit", to: 3 << 20)
        #expect(try db.scalarInt("PRAGMA journal_size_limit") == 3 << 20)
    }
}
