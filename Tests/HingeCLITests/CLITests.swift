import ArgumentScanning
import Glibc
import JSON
import LayoutEngine
import Resolving
import Store
import Synchronization
import TestSupport
import Testing

@testable import HingeCLI

private let builtIns = StaticDeviceCatalog(BuiltInDevices.all)
private let phoneScene = Array(
    #"{"device": "iphone-16", "presentations": [{"id": "settings", "kind": "sheet", "detents": ["medium", "large"]}]}"#
        .utf8)
private let duoScene = Array(
    #"{"device": "iphone-duo", "posture": "halfOpened", "presentations": [{"id": "s", "kind": "sheet"}]}"#.utf8)

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

/// A path in a fresh temporary directory (removed by `cleanup`).
private struct TempDir {
    let path: String
    init() {
        var template = Array("/tmp/hinge-cli-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { buf in
            guard let base = buf.baseAddress, let p = mkdtemp(base) else { return "/tmp" }
            return String(cString: p)
        }
    }
    func file(_ name: String) -> String { path + "/" + name }
    func cleanup() {
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
                }
                if name != "." && name != ".." { unlink(file(name)) }
            }
            closedir(dir)
        }
        rmdir(path)
    }
}

@Suite struct ResolveCommandOptionsTests {
    func parse(_ args: [String], _ env: [String: String] = [:]) throws(UsageError) -> ResolveCommandOptions {
        try ResolveCommandOptions.parse(args, environment: { env[$0] })
    }

    @Test func defaults() throws {
        let o = try parse(["scene.json"])
        #expect(o.file == "scene.json")
        #expect(o.overrides == SceneOverrides())
        #expect(o.format == .json)
        #expect(o.db == "./hinge.sqlite")
    }

    @Test func everyFlagBothForms() throws {
        let o = try parse([
            "--device", "iphone-duo", "--posture=halfOpened", "-", "--orientation", "landscape",
            "--layout-direction=rtl", "--format", "svg", "--db", "/tmp/x.sqlite",
        ])
        #expect(o.file == "-")
        #expect(
            o.overrides
                == SceneOverrides(
                    device: "iphone-duo", posture: .halfOpened, orientation: .landscape, layoutDirection: .rtl))
        #expect(o.format == .svg)
        #expect(o.db == "/tmp/x.sqlite")
    }

    @Test func environmentDatabaseAndFlagPrecedence() throws {
        #expect(try parse(["f"], ["HINGE_DB": "/e.sqlite"]).db == "/e.sqlite")
        #expect(try parse(["f", "--db", "/f.sqlite"], ["HINGE_DB": "/e.sqlite"]).db == "/f.sqlite")
    }

    @Test func doubleDashMakesTheRestPositional() throws {
        #expect(try parse(["--", "--weird-name.json"]).file == "--weird-name.json")
    }

    @Test(arguments: [
        ([], "missing FILE"),
        (["a", "b"], "unexpected argument 'b'"),
        (["a", "--bogus"], "unknown option '--bogus'"),
        (["a", "--posture", "open"], "--posture must be one of flat, halfOpened, closed, got 'open'"),
        (["a", "--orientation=up"], "--orientation must be one of"),
        (["a", "--layout-direction", "up"], "--layout-direction must be one of ltr, rtl"),
        (["a", "--format", "png"], "--format must be one of json, svg"),
        (["a", "--device"], "option --device needs a value"),
        (["a", "--device="], "--device needs a device id"),
    ])
    func usageErrors(_ args: [String], _ message: String) {
        #expect {
            _ = try parse(args)
        } throws: { error in
            guard let e = error as? UsageError else { return false }
            return e.message.contains(message) && !e.message.contains("\n")
        }
    }
}

@Suite struct ResolveCommandRunnerTests {
    @Test func jsonIsThePrettyFormOfTheServiceAnswer() throws {
        let out = ResolveCommandRunner.run(body: phoneScene, options: .init(file: "-"), catalog: builtIns)
        #expect(out.exitCode == 0)
        #expect(out.stderr.isEmpty)
        let service = Resolver.resolve(body: phoneScene, catalog: builtIns)
        #expect(try JSONParser.parse(out.stdout) == JSONParser.parse(service.json))
        #expect(text(out.stdout).hasPrefix("{\n  \""))
        #expect(text(out.stdout).hasSuffix("}\n"))
    }

    @Test func svg() {
        var options = ResolveCommandOptions(file: "-")
        options.format = .svg
        let out = ResolveCommandRunner.run(body: duoScene, options: options, catalog: builtIns)
        #expect(out.exitCode == 0)
        let s = text(out.stdout)
        #expect(s.hasPrefix("<?xml") || s.hasPrefix("<svg"))
        #expect(s.contains("</svg>"))
    }

    @Test func overridesApplyBeforeValidation() throws {
        var options = ResolveCommandOptions(file: "-")
        options.overrides = SceneOverrides(device: "iphone-duo", posture: .halfOpened, layoutDirection: .rtl)
        let out = ResolveCommandRunner.run(body: phoneScene, options: options, catalog: builtIns)
        #expect(out.exitCode == 0)
        let expected = Resolver.resolve(body: phoneScene, catalog: builtIns, overrides: options.overrides)
        #expect(try JSONParser.parse(out.stdout) == JSONParser.parse(expected.json))
        #expect(text(out.stdout).contains("\"rtl\""))

        options.overrides = SceneOverrides(device: "no-such-device")
        let bad = ResolveCommandRunner.run(body: phoneScene, options: options, catalog: builtIns)
        #expect(bad.exitCode == 1)
        #expect(bad.stdout.isEmpty)
        #expect(try JSONParser.parse(bad.stderr)["status"] == .number(422))
    }

    @Test(arguments: [("{\"device\": 3}", 422.0), ("{not json", 400.0), ("", 400.0)])
    func problemsGoToStderrWithExitOne(_ body: String, _ status: Double) throws {
        let out = ResolveCommandRunner.run(body: Array(body.utf8), options: .init(file: "-"), catalog: builtIns)
        #expect(out.exitCode == 1)
        #expect(out.stdout.isEmpty)
        let problem = try JSONParser.parse(out.stderr)
        #expect(problem["status"] == .number(status))
        #expect(text(out.stderr).contains("\n  \""))  // pretty
    }

    @Test func fileAndDatabaseHandling() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let scene = dir.file("scene.json")
        let fd = open(scene, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0)
        #expect(CLIFiles.write(phoneScene, to: fd))
        close(fd)
        #expect(try CLIFiles.read(scene, limit: 1 << 20) == phoneScene)

        // A database named with --db that does not exist: exit 1 with one message, and no file is created.
        var options = ResolveCommandOptions(file: scene)
        options.db = dir.file("absent.sqlite")
        let absent = ResolveCommandRunner.run(options: options)
        #expect(absent.exitCode == 1)
        #expect(text(absent.stderr).hasPrefix("hinge resolve: no database at \(options.db)"))
        #expect(access(options.db, F_OK) != 0)
        var devices = DevicesCommandOptions()
        devices.db = options.db
        let devicesAbsent = DevicesCommandRunner.run(options: devices)
        #expect(devicesAbsent.exitCode == 1)
        #expect(text(devicesAbsent.stderr).hasPrefix("hinge devices: no database at \(options.db)"))
        #expect(access(options.db, F_OK) != 0)

        // In memory: the built-ins.
        options.db = ":memory:"
        #expect(ResolveCommandRunner.run(options: options).exitCode == 0)

        // A missing scene file: exit 1, one message.
        options.file = dir.file("nope.json")
        let missing = ResolveCommandRunner.run(options: options)
        #expect(missing.exitCode == 1)
        #expect(text(missing.stderr).hasPrefix("hinge resolve: cannot read "))
    }

    @Test func customProfilesOfAnExistingDatabase() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let db = dir.file("hinge.sqlite")
        let store = try Store.open(.init(path: db))
        var custom = try #require(BuiltInDevices.all.first { $0.id == "iphone-16" })
        custom.id = "my-phone"
        custom.name = "My Phone"
        custom.builtIn = false
        _ = try store.devices.put(custom)
        store.close()

        var options = ResolveCommandOptions(file: dir.file("scene.json"))
        options.db = db
        options.overrides.device = "my-phone"
        let fd = open(options.file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        CLIFiles.write(phoneScene, to: fd)
        close(fd)
        let out = ResolveCommandRunner.run(options: options)
        #expect(out.exitCode == 0, "\(text(out.stderr))")

        options.db = dir.file("other.sqlite")
        #expect(ResolveCommandRunner.run(options: options).exitCode == 1)  // only the built-ins there

        let list = DevicesCommandRunner.run(
            options: {
                var o = DevicesCommandOptions()
                o.db = db
                return o
            }())
        #expect(text(list.stdout).contains("my-phone"))
        #expect(text(list.stdout).contains("custom"))
    }

    @Test func aFileThatIsNotADatabaseIsRefusedAndLeftAlone() throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let db = dir.file("garbage.sqlite")
        let fd = open(db, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let garbage = [UInt8](repeating: 0x41, count: 4096)
        CLIFiles.write(garbage, to: fd)
        close(fd)
        var options = DevicesCommandOptions()
        options.db = db
        let out = DevicesCommandRunner.run(options: options)
        #expect(out.exitCode == 1)
        #expect(text(out.stderr).contains("not a SQLite database"))
        // A command that only reads starts nothing: its message says so in its own terms.
        #expect(!text(out.stderr).contains("refusing to start"))
        #expect(text(out.stderr).contains("nothing was read"))
        var replay = ReplayCommandOptions()
        replay.db = db
        let replayed = ReplayCommandRunner.run(options: replay)
        #expect(replayed.exitCode == 1)
        #expect(text(replayed.stderr).contains("not a SQLite database"))
        #expect(!text(replayed.stderr).contains("refusing to start"))
        #expect(try CLIFiles.read(db, limit: 1 << 20) == garbage)
    }
}

@Suite struct DevicesCommandTests {
    @Test func parse() throws {
        let env: (String) -> String? = { _ in nil }
        #expect(try DevicesCommandOptions.parse([], environment: env) == DevicesCommandOptions())
        #expect(try DevicesCommandOptions.parse(["iphone-duo"], environment: env).id == "iphone-duo")
        #expect(try DevicesCommandOptions.parse(["--kind=foldable"], environment: env).kind == .foldable)
        #expect(throws: UsageError.self) { try DevicesCommandOptions.parse(["--kind", "watch"], environment: env) }
        #expect(throws: UsageError.self) { try DevicesCommandOptions.parse(["a", "b"], environment: env) }
        #expect(throws: UsageError.self) {
            try DevicesCommandOptions.parse(["a", "--kind", "phone"], environment: env)
        }
    }

    @Test func table() throws {
        let out = DevicesCommandRunner.run(options: DevicesCommandOptions(), profiles: BuiltInDevices.all)
        #expect(out.exitCode == 0)
        let lines = text(out.stdout).split(separator: "\n")
        #expect(lines.count == BuiltInDevices.all.count + 1)
        #expect(lines[0].hasPrefix("ID"))
        let duo = lines.first { $0.hasPrefix("iphone-duo ") }
        #expect(duo?.contains("foldable") == true)
        #expect(duo?.contains("376×832, 752×832") == true)
        #expect(duo?.hasSuffix("built-in") == true)
        // Columns line up: KIND starts at the same offset on every line, after a blank.
        let header = Array(lines[0])
        let kindColumn = try #require(
            (0..<header.count).first { String(header[$0..<min($0 + 4, header.count)]) == "KIND" })
        for line in lines.map(Array.init) {
            #expect(line[kindColumn - 1] == " " && line[kindColumn] != " ")
        }
    }

    @Test func kindFilter() {
        let out = DevicesCommandRunner.run(options: .init(kind: .tablet), profiles: BuiltInDevices.all)
        let rows = text(out.stdout).split(separator: "\n").dropFirst()
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { $0.contains(" tablet ") })
    }

    @Test func oneProfile() throws {
        let out = DevicesCommandRunner.run(options: .init(id: "iphone-duo"), profiles: BuiltInDevices.all)
        #expect(out.exitCode == 0)
        let profile = try #require(BuiltInDevices.all.first { $0.id == "iphone-duo" })
        #expect(try JSONParser.parse(out.stdout) == profile.json)
        #expect(text(out.stdout).hasPrefix("{\n"))

        let missing = DevicesCommandRunner.run(options: .init(id: "nope"), profiles: BuiltInDevices.all)
        #expect(missing.exitCode == 1)
        #expect(missing.stdout.isEmpty)
        #expect(text(missing.stderr).contains("'nope'"))
    }
}

@Suite struct ReplayCommandTests {
    @Test func parse() throws {
        let env: (String) -> String? = { $0 == "HINGE_DB" ? "/e.sqlite" : nil }
        let o = try ReplayCommandOptions.parse(
            ["--since", "2025-01-31T09:05:07Z", "--until=2025-02-01T00:00:00.000Z", "--limit", "20"], environment: env)
        #expect(o.db == "/e.sqlite")
        #expect(o.since == Timestamp(iso8601: "2025-01-31T09:05:07Z"))
        #expect(o.until == Timestamp(iso8601: "2025-02-01T00:00:00Z"))
        #expect(o.limit == 20)
        for bad in [
            ["--limit", "0"], ["--limit", "x"], ["--since", "yesterday"], ["extra"], ["--nope"],
            ["--since", "2025-02-01T00:00:00Z", "--until", "2025-01-01T00:00:00Z"],
        ] {
            #expect(throws: UsageError.self) { try ReplayCommandOptions.parse(bad, environment: env) }
        }
    }

    @Test func summaryCountsAndReport() {
        var s = ReplaySummary()
        #expect(s.exitCode == 0)
        #expect(s.report == "replayed 0, unchanged 0, changed 0, skipped 0\n")
        s.add(.unchanged, id: RecordID(rawValue: 9), path: "/v1/resolve")
        s.add(.skipped(.truncated), id: RecordID(rawValue: 8), path: "/v1/resolve")
        let diffs = (0..<7).map {
            Replay.Difference(path: JSONPointer(["placements", String($0)]), before: .number(1), after: .number(2))
        }
        s.add(.changed(diffs), id: RecordID(rawValue: 7), path: "/v1/resolve/matrix")
        #expect(s.replayed == 2)
        #expect(s.unchanged == 1)
        #expect(s.skippedCount == 1)
        #expect(s.processed == 3)
        #expect(s.exitCode == 1)
        let lines = s.report.split(separator: "\n")
        #expect(lines[0] == "replayed 2, unchanged 1, changed 1, skipped 1 (1 truncated bodies)")
        #expect(
            lines[1]
                == "changed 7 /v1/resolve/matrix: /placements/0, /placements/1, /placements/2, /placements/3, /placements/4, … (7 differences)"
        )
    }

    /// Records `bodies` (each resolved by the service's resolver) into `store`, oldest first.
    func record(_ bodies: [[UInt8]], into store: Store, at base: Int64 = 1_700_000_000_000, tamper: Set<Int> = [])
        throws -> [RecordID]
    {
        let ids = Mutex<[Int: RecordID]>([:])
        for (i, body) in bodies.enumerated() {
            let out = Resolver.resolve(body: body, catalog: store)
            var response = out.json
            if tamper.contains(i), var v = try? JSONParser.parse(response), case .object(var o) = v {
                o["engine"] = .string("tampered")
                v = .object(o)
                response = JSONWriter.encode(v)
            }
            store.requestLog.append(
                RequestRecord(
                    receivedAt: Timestamp(millisecondsSinceEpoch: base + Int64(i) * 1000), durationMicros: 1,
                    device: RecordFacts(resolve: out, request: body).device, status: out.status,
                    codes: RecordFacts(resolve: out, request: body).codes, path: "/v1/resolve", requestBody: body,
                    responseBody: response, engineVersion: LayoutEngine.version)
            ) { result in
                if case .success(let id) = result { ids.withLock { $0[i] = id } }
            }
        }
        store.requestLog.flush()
        let all = ids.withLock { $0 }
        return bodies.indices.compactMap { all[$0] }
    }

    @Test func replayOfAnUntouchedLogIsUnchanged() throws {
        let store = try Store.open(.init(path: ":memory:"))
        defer { store.close() }
        let bodies = (0..<1203).map { i in
            i % 3 == 0 ? duoScene : i % 3 == 1 ? phoneScene : Array("{\"device\": 1}".utf8)
        }
        let ids = try record(bodies, into: store)
        #expect(ids.count == 1203)
        var progress: [(Int, Int)] = []
        let summary = try ReplayCommandRunner.run(log: store.requestLog, catalog: store, options: .init()) {
            progress.append(($0, $1))
        }
        #expect(summary.replayed == 1203)
        #expect(summary.unchanged == 1203)
        #expect(summary.exitCode == 0)
        #expect(progress.count == 1203)
        #expect(progress.last.map { $0 == (1203, 1203) } == true)
    }

    @Test func changedTruncatedLimitAndWindow() throws {
        // Bodies up to the largest answer of the two scenes (plus room for the tampering) are kept whole; `long` is cut.
        let cap =
            ([phoneScene, duoScene].map { Resolver.resolve(body: $0, catalog: builtIns).json.count }.max() ?? 0) + 100
        let store = try Store.open(.init(path: ":memory:", maxBodyBytes: cap))
        defer { store.close() }
        let long = Array(
            (#"{"device": "iphone-16", "name": ""# + String(repeating: "x", count: cap) + #"", "presentations": []}"#)
                .utf8)
        let ids = try record([phoneScene, long, duoScene, phoneScene], into: store, tamper: [2])
        #expect(ids.count == 4)

        var summary = try ReplayCommandRunner.run(log: store.requestLog, catalog: store, options: .init())
        #expect(summary.replayed == 3)
        #expect(summary.skipped[.truncated] == 1)
        #expect(summary.changed.map(\.id) == [ids[2]])
        #expect(summary.changed.first?.paths == ["/engine"])
        #expect(summary.exitCode == 1)

        var options = ReplayCommandOptions()
        options.limit = 1  // the newest only: untouched
        summary = try ReplayCommandRunner.run(log: store.requestLog, catalog: store, options: options)
        #expect(summary.processed == 1)
        #expect(summary.exitCode == 0)

        options = ReplayCommandOptions()
        options.since = Timestamp(millisecondsSinceEpoch: 1_700_000_001_000)
        options.until = Timestamp(millisecondsSinceEpoch: 1_700_000_002_000)
        #expect(try ReplayCommandRunner.selection(store.requestLog, options: options) == [ids[2], ids[1]])
    }

    @Test func theDatabaseMustExist() {
        var options = ReplayCommandOptions()
        options.db = "/nonexistent-dir/hinge.sqlite"
        let out = ReplayCommandRunner.run(options: options)
        #expect(out.exitCode == 1)
        #expect(text(out.stderr).hasPrefix("hinge replay: no database at /nonexistent-dir/hinge.sqlite"))
    }
}
