import ArgumentScanning
import Glibc
import JSON
import LayoutEngine
import Resolving
import Store

/// Options of `hinge constant-sets` (docs/api.md#constant-sets).
public struct ConstantSetsCommandOptions: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        case list
        case show(String)
        /// The version, the file, and whether as a design tokens document.
        case export(ConstantSetReference, file: String, tokens: Bool)
        /// The set's name, the file, and whether it is a design tokens document.
        case `import`(String, file: String, tokens: Bool)
        /// The set's name and the version's body (`--based-on`, `--set`, `--note`).
        case create(String, ConstantSetCreation)
    }

    public var action = Action.list
    public var db = CLIDefaults.db
    /// `--server URL`: `create` posts to this server instead of writing the database.
    public var server: String?
    /// `--api-key KEY` (`HINGE_API_KEY`): the server's key for writes.
    public var apiKey: String?

    public init() {}

    public static var usage: String { table.usage }

    public static func parse(_ arguments: [String], environment: (String) -> String?) throws(UsageError)
        -> ConstantSetsCommandOptions
    {
        var p = Parsing()
        var words: [String] = []
        try table.parse(arguments, into: &p, environment: environment) { word in words.append(word) }
        var o = p.options
        o.action = try action(words, tokens: p.tokens, creation: p.creation)
        var creating = false
        if case .create = o.action { creating = true }
        if !creating && o.server != nil { throw UsageError("--server applies to create only") }
        if !creating && p.creation != ConstantSetCreation() {
            throw UsageError("--based-on, --set and --note apply to create only")
        }
        return o
    }

    /// What the flags set: the options, and what becomes the action with the positional words.
    public struct Parsing: Sendable {
        var options = ConstantSetsCommandOptions()
        /// `--format`: a design tokens document (`dtcg`) or Hinge's JSON.
        var tokens = true
        var creation = ConstantSetCreation()
    }

    /// The options of `hinge constant-sets`: parsing and `--help` come from it.
    public static let table = OptionTable<Parsing>(
        command: "constant-sets",
        header: """
            USAGE: hinge constant-sets [list | show NAME[@N] | export NAME[@N] FILE | import NAME FILE] [options]
                   hinge constant-sets create NAME [--based-on default|NAME@N] --set KEY=VALUE... [--note TEXT]
                                      [--db PATH | --server URL [--api-key KEY]]

            The constant sets of the database (docs/api.md#constant-sets), as GET /v1/constant-sets answers them.
              list                   the sets: name, latest version, creation time, note (the default)
              show NAME[@N]          a set with its versions, or one version with every constant, as JSON
              export NAME[@N] FILE   write the version to FILE (- for standard output) as a design tokens document
                                     (W3C format 2025.10), or as Hinge's JSON with --format json
              import NAME FILE       create the next version of NAME from FILE (a design tokens document, or
                                     Hinge's JSON with --format json), checked as POST …/versions checks it.
                                     A SQLite database must not be in use by a server (POST the file to it
                                     instead); with PostgreSQL every server sees the new version at once.
              create NAME            create the next version of NAME: the constants of --based-on (default: the
                                     built-in values) with each --set KEY=VALUE on top (GET /v1/constants lists
                                     the keys), each set value's source the note; checked as POST …/versions
                                     checks it. Into the database, or through a server with --server.
            """,
        helpColumn: 17,
        sections: [
            .init(
                "OPTIONS:",
                [
                    CLIDefaults.databaseOption(
                        help: "the database: a SQLite file or a postgres:// URL (HINGE_DB, default ./hinge.sqlite)"
                    ) { p, db in p.options.db = db },
                    .one("--format", "F", help: "dtcg (default) | json, for export and import") {
                        p, v, _ throws(UsageError) in
                        guard v == "dtcg" || v == "json" else {
                            throw UsageError("--format must be dtcg or json, got '\(v)'")
                        }
                        p.tokens = v == "dtcg"
                    },
                    .one(
                        "--based-on", "R",
                        help: "create: the version the new one starts from, default or NAME@N (default: default)"
                    ) { p, v, _ throws(UsageError) in try p.creation.base(on: v) },
                    .list("--set", "K=V", help: "create: a constant's value, repeatable") {
                        p, values, _ throws(UsageError) in
                        for v in values { try p.creation.assign(v) }
                    },
                    .one("--note", "TEXT", help: "create: what the version is for; the source of every value it sets") {
                        p, v, _ in p.creation.note = v
                    },
                    .one(
                        "--server", "URL",
                        help: "create: post to this server (http://host:port) instead of writing --db"
                    ) { p, url, _ throws(UsageError) in
                        guard ServerPost(url: url) != nil else {
                            throw UsageError("--server must be http://host[:port], got '\(TerminalText.escaped(url))'")
                        }
                        p.options.server = url
                    },
                    .one(
                        "--api-key", "KEY", variable: "HINGE_API_KEY",
                        help: "create: the server's API key for writes (HINGE_API_KEY)"
                    ) { p, v, _ in p.options.apiKey = v.isEmpty ? nil : v },
                ])
        ],
        footer: """
            EXIT STATUS:
              0  done
              1  no such set or version, an invalid file (the problem document on standard error), or the
                 database could not be read or written
              2  usage error
            """)

    /// The action the words name (`list`, `show NAME[@N]`, …).
    static func action(_ words: [String], tokens: Bool, creation: ConstantSetCreation) throws(UsageError) -> Action {
        func reference(_ text: String) throws(UsageError) -> ConstantSetReference {
            guard let r = ConstantSetReference(text), !r.isDefault else {
                throw UsageError("expected a set's name or name@version, got '\(TerminalText.escaped(text))'")
            }
            return r
        }
        switch (words.first, words.count) {
        case (nil, _), ("list", 1): return .list
        case ("show", 2): return .show((try reference(words[1])).description)
        case ("export", 3): return .export(try reference(words[1]), file: words[2], tokens: tokens)
        case ("import", 3):
            if let problem = ConstantSetDrafts.nameProblem(words[1]) { throw UsageError(problem) }
            return .import(words[1], file: words[2], tokens: tokens)
        case ("create", 2):
            if let problem = ConstantSetDrafts.nameProblem(words[1]) { throw UsageError(problem) }
            guard !creation.constants.isEmpty else { throw UsageError("create needs at least one --set KEY=VALUE") }
            return .create(words[1], creation)
        default:
            throw UsageError(
                "expected list, show NAME[@N], export NAME[@N] FILE, import NAME FILE or create NAME --set KEY=VALUE")
        }
    }
}

/// `hinge constant-sets`: what to print, computed from an open store (tests call it directly).
public enum ConstantSetsCommandRunner {
    public static func run(_ options: ConstantSetsCommandOptions, sets: ConstantSetStore) -> CommandOutput {
        switch options.action {
        case .list:
            var out = "NAME".padding(24) + "LATEST  CREATED                   NOTE\n"
            for s in sets.list() {
                out +=
                    TerminalText.escaped(s.name).padding(24) + String(s.latest?.version ?? 0).padding(8)
                    + s.createdAt.iso8601.padding(26) + TerminalText.escaped(s.latest?.note ?? "") + "\n"
            }
            return CommandOutput(exitCode: 0, stdout: Array(out.utf8))
        case .show(let text):
            guard let ref = ConstantSetReference(text), let set = sets.set(ref.name) else {
                return .failure("hinge constant-sets: no constant set \(TerminalText.escaped(text))")
            }
            guard let n = ref.version else { return pretty(ConstantSetJSON.set(set)) }
            guard let v = set.version(n) else { return .failure("hinge constant-sets: no version \(ref)") }
            return pretty(ConstantSetJSON.version(v))
        case .export(let ref, let file, let tokens):
            guard case .found(let v) = sets.lookup(ref, includeRetired: true) else {
                return .failure("hinge constant-sets: no version \(ref)")
            }
            let bytes =
                JSONWriter.encode(tokens ? ConstantSetTokens.document(v) : ConstantSetJSON.version(v), options: .pretty)
                + [0x0A]
            if file == "-" { return CommandOutput(exitCode: 0, stdout: bytes) }
            guard CLIFiles.writeFile(file, bytes) else {
                return .failure("hinge constant-sets: cannot write \(TerminalText.escaped(file))")
            }
            return CommandOutput(exitCode: 0, stdout: Array("exported \(v.reference) to \(file)\n".utf8))
        case .import(let name, let file, let tokens):
            let body: [UInt8]
            do throws(CLIError) { body = try CLIFiles.read(file, limit: CLIDefaults.maxBody) } catch {
                return .failure("hinge constant-sets: \(error)")
            }
            let parsed =
                tokens
                ? ConstantSetTokens.draft(tokens: body, name: name, catalog: sets)
                : ConstantSetDrafts.draft(json: body, catalog: sets)
            return store(parsed, name: name, sets: sets)
        case .create(let name, let creation):
            return store(ConstantSetDrafts.draft(json: creation.body, catalog: sets), name: name, sets: sets)
        }
    }

    /// Stores a checked draft as the next version of `name`, or prints its problem document.
    static func store(_ parsed: Result<ConstantSetDraft, Problem>, name: String, sets: ConstantSetStore)
        -> CommandOutput
    {
        switch parsed {
        case .failure(let problem): return problemOutput(problem.document)
        case .success(let draft):
            do throws(StoreError) {
                let v = try sets.create(name: name, draft: draft)
                return CommandOutput(exitCode: 0, stdout: Array("created \(v.reference) \(v.digest.quoted)\n".utf8))
            } catch {
                return .failure("hinge constant-sets: cannot store the version: \(error)")
            }
        }
    }

    /// A problem document, pretty, on standard error (exit 1).
    static func problemOutput(_ document: [UInt8]) -> CommandOutput {
        let doc = (try? JSONParser.parse(document)).map { JSONWriter.encode($0, options: .pretty) }
        return CommandOutput(exitCode: 1, stderr: (doc ?? document) + [0x0A])
    }

    static func pretty(_ value: JSONValue) -> CommandOutput {
        CommandOutput(exitCode: 0, stdout: JSONWriter.encode(value, options: .pretty) + [0x0A])
    }

    /// Opens the database (which must exist; exclusively for an import into SQLite, so that no server's
    /// snapshot misses the new version) and runs.
    public static func run(options: ConstantSetsCommandOptions) -> CommandOutput {
        if let server = options.server, case .create(let name, let creation) = options.action {
            return create(name, creation, server: server, apiKey: options.apiKey)
        }
        guard CLIFiles.databaseExists(options.db) else {
            return .failure("hinge constant-sets: no database at \(options.db)")
        }
        var configuration = Store.Configuration(path: options.db, maxReaders: 1, requireWritable: false)
        switch options.action {
        case .import, .create:
            configuration.requireWritable = true
            configuration.exclusive = !CLIFiles.isPostgresURL(options.db)
        default: break
        }
        let store: Store
        do throws(StoreError) { store = try Store.open(configuration) } catch {
            if case .locked = error {
                return .failure(
                    "hinge constant-sets: a server uses \(options.db): POST to its /v1/constant-sets/{name}/versions "
                        + "instead (for create: --server URL)")
            }
            return .failure("hinge constant-sets: cannot open the database: \(error)")
        }
        defer { store.close() }
        return run(options, sets: store.constantSets)
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}

extension CLIFiles {
    /// Writes `bytes` to `path` (created or truncated, mode 0644); false on any failure.
    static func writeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        let written = write(bytes, to: fd)
        return close(fd) == 0 && written
    }
}
