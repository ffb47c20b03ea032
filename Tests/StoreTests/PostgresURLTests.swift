import Testing

@testable import Store

/// `PostgresURL`: read as libpq reads it, secrets refused however spelled, printed only redacted.
@Suite struct PostgresURLTests {
    @Test(arguments: [
        "postgres://hinge:hunter2@127.0.0.1:5432/hinge", "postgresql://u:@h/db", "postgres://u@h/db?password=hunter2",
        "postgres://u@127.0.0.1:5432/db?pass%77ord=hunter2", "postgres://u@h/db?sslpassword=hunter2",
        "postgres://u@h/db?sslmode=disable&%70assword=hunter2", "postgres://u@h/db?ssl%70assword=hunter2",
    ])
    func aSecretIsRefusedHoweverSpelledAndNeverEchoed(_ url: String) {
        #expect {
            try PostgresURL.check(url)
        } throws: { error in
            let text = "\(error)"
            return text.contains("PGPASSWORD") && !text.contains("hunter2") && !text.contains("127.0.0.1")
        }
        #expect(!PostgresURL.redacted(url).contains("hunter2"))
    }

    @Test func aURLLibpqCannotReadIsRefusedWithoutEchoingIt() {
        for url in ["postgres://u@h/db?PASSWORD=hunter2", "postgres://u@h/db?nosuchparameter=hunter2"] {
            #expect {
                try PostgresURL.check(url)
            } throws: { error in !"\(error)".contains("hunter2") }
            #expect(PostgresURL.redacted(url) == "postgres://(unreadable URL)")
        }
    }

    @Test func aKeywordValueStringIsRefusedAsADatabaseWithoutBeingRepeated() {
        let db = "host=db.example password=hunter2 dbname=hinge"
        #expect(PostgresURL.isKeywordValue(db))
        for path in ["hinge.sqlite", "a=b.sqlite", "/tmp/x=y/hinge.sqlite", "postgres://u@h/db", ":memory:"] {
            #expect(!PostgresURL.isKeywordValue(path), "\(path)")
        }
        #expect {
            _ = try Store.open(Store.Configuration(path: db))
        } throws: { error in
            let text = "\(error)"
            return text.contains("keyword/value") && !text.contains("hunter2") && !text.contains("db.example")
        }
    }

    @Test func aURLWithoutSecretsPassesAndPrintsFromItsParsedParameters() throws {
        try PostgresURL.check("postgres://hinge@127.0.0.1:5432/hinge?sslmode=require&application_name=x%1By")
        #expect(
            PostgresURL.redacted("postgresql://hinge@127.0.0.1:5432/hinge?sslmode=require")
                == "postgres://hinge@127.0.0.1:5432/hinge?sslmode=require")
        // A control character in a parameter is printed encoded, never raw.
        let printed = PostgresURL.redacted("postgres://hinge@h/db?application_name=a%1B%5B2Jb")
        #expect(printed == "postgres://hinge@h/db?application_name=a%1B%5B2Jb")
        #expect(!printed.unicodeScalars.contains { $0.value < 0x20 })
        #expect(PostgresURL.redacted("postgres://u@[::1]:5432/db") == "postgres://u@[::1]:5432/db")
    }
}
