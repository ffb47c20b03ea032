import TestSupport

@testable import Store

#if canImport(Glibc)
    import Glibc
#endif

/// The engines a shared test runs against: SQLite always, PostgreSQL when `HINGE_TEST_POSTGRES_URL` names a
/// database (`.ci/run` starts one with scripts/postgres-cluster.sh).
enum EngineTarget: String, CustomStringConvertible, Sendable {
    case sqlite, postgres

    var description: String { rawValue }

    static let postgresURL: String? = getenv("HINGE_TEST_POSTGRES_URL").map { String(cString: $0) }
    static var all: [EngineTarget] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }
}

/// One test's own database: a SQLite file in a temporary directory, or a fresh schema in the PostgreSQL
/// database (dropped with everything in it when the value goes away), so that tests run in parallel.
final class TestDatabase: @unchecked Sendable {
    // Sendable proof: every property is a constant.
    let target: EngineTarget
    let directory = TemporaryDirectory()
    /// PostgreSQL: the test's schema.
    let schema: String?

    init(_ target: EngineTarget) throws {
        self.target = target
        guard target == .postgres else {
            schema = nil
            return
        }
        let name = "hinge_test_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let admin = try TestDatabase.adminConnection()
        defer { admin.close() }
        let quoted = try requireQuoted(admin, name)
        try admin.exec("CREATE SCHEMA " + quoted)
        schema = name
    }

    deinit {
        guard let schema, let admin = try? TestDatabase.adminConnection() else { return }
        if let quoted = admin.escapeIdentifier(schema) { _ = try? admin.exec("DROP SCHEMA " + quoted + " CASCADE") }
        admin.close()
    }

    var path: String {
        switch target {
        case .sqlite: return directory.file("hinge.sqlite")
        case .postgres: return EngineTarget.postgresURL ?? ""
        }
    }

    /// A configuration of this database; `change` adjusts it.
    func configuration(_ change: (inout Store.Configuration) -> Void = { _ in }) -> Store.Configuration {
        var c = Store.Configuration(path: path, replicaID: "test-replica", postgresSchema: schema)
        change(&c)
        return c
    }

    func open(_ change: (inout Store.Configuration) -> Void = { _ in }) throws -> Store {
        try Store.open(configuration(change))
    }

    /// A connection of the test's own to the PostgreSQL database (default search path).
    static func adminConnection() throws -> PGConnection {
        try PGConnection(url: EngineTarget.postgresURL ?? "", applicationName: "hinge-tests", schema: nil)
    }

    /// A connection with the test's schema on its search path.
    func connection() throws -> PGConnection {
        try PGConnection(url: path, applicationName: "hinge-tests", schema: schema)
    }
}

struct QuotingFailed: Error {}

/// `name` quoted as an identifier by libpq.
func requireQuoted(_ db: PGConnection, _ name: String) throws -> String {
    guard let q = db.escapeIdentifier(name) else { throw QuotingFailed() }
    return q
}
