import ArgumentScanning
import JSON
import LayoutEngine
import Resolving
import Store
import Wireframe

/// Options of `hinge resolve FILE`.
public struct ResolveCommandOptions: Sendable, Equatable {
    public enum Format: String, Sendable, CaseIterable { case json, svg }

    /// The scene file, or `-` for standard input.
    public var file: String
    /// `--device`, `--posture`, `--orientation`, `--layout-direction`: patched into the scene before it
    /// is validated (`Resolver.resolve(body:catalog:overrides:)`), exactly as if the file said so.
    public var overrides = SceneOverrides()
    public var format = Format.json
    /// `--width N`: the SVG's width in pixels, as `?width=` on the server.
    public var width: Int?
    /// `--db` or `HINGE_DB`: custom device profiles are read from it (only the default may be missing).
    public var db = CLIDefaults.db
    /// `--max-body` or `HINGE_MAX_BODY`: the most bytes read from FILE, as the server's request-body limit.
    public var maxBody = CLIDefaults.maxBody
    /// `--constant-set NAME[@N]`: resolve with this constant set version (of the database) instead of the scene's
    /// `constantSet` (docs/api.md#constant-sets).
    public var constantSet: ConstantSetReference?

    public init(file: String) { self.file = file }

    public static var usage: String { table.usage }

    public static func parse(_ arguments: [String], environment: (String) -> String?) throws(UsageError)
        -> ResolveCommandOptions
    {
        var o = ResolveCommandOptions(file: "")
        var file: String?
        try table.parse(arguments, into: &o, environment: environment) { p throws(UsageError) in
            guard file == nil else { throw table.extraArgument(p) }
            file = p
        }
        guard let file else { throw UsageError("missing FILE (a scene JSON file, or - for standard input)") }
        if o.width != nil, o.format != .svg {
            throw UsageError("--width sizes the SVG picture: add --format svg, or leave --width out")
        }
        o.file = file
        return o
    }
}

extension ResolveCommandOptions {
    /// The options of `hinge resolve`: parsing and `--help` come from it.
    public static let table = OptionTable<ResolveCommandOptions>(
        command: "resolve",
        header: """
            USAGE: hinge resolve FILE [options]

            Resolves a scene (docs/api.md#resolve) with the same engine as POST /v1/resolve, without a server,
            and prints the resolution as pretty-printed JSON with sorted keys (or an SVG wireframe) on standard
            output.
            FILE is a scene JSON file, or - for standard input.

            Device profiles: the built-ins, plus the custom profiles of the database (never created). Without
            --db or HINGE_DB a missing ./hinge.sqlite means the built-ins alone; a database named there must
            exist. Nothing is recorded in the request log.
            """,
        helpColumn: 27,
        sections: [
            .init(
                "OPTIONS:",
                [
                    .one("--device", "ID", help: "resolve on this device instead of the scene's") {
                        o, v, _ throws(UsageError) in
                        guard !v.isEmpty else { throw UsageError("--device needs a device id") }
                        o.overrides.device = v
                    },
                    .one("--posture", "P", help: "flat | halfOpened | closed") { o, v, name throws(UsageError) in
                        o.overrides.posture = try CommandArguments.choice(v, name, Posture.self)
                    },
                    .one("--orientation", "O", help: "portrait | landscape") { o, v, name throws(UsageError) in
                        o.overrides.orientation = try CommandArguments.choice(v, name, Orientation.self)
                    },
                    .one("--layout-direction", "D", help: "ltr | rtl") { o, v, name throws(UsageError) in
                        o.overrides.layoutDirection = try CommandArguments.choice(v, name, LayoutDirection.self)
                    },
                    .one("--format", "F", help: "json (default) | svg") { o, v, name throws(UsageError) in
                        o.format = try CommandArguments.choice(v, name, Format.self)
                    },
                    .one(
                        "--width", "N",
                        help: "with --format svg: the SVG's width in pixels (16…4096); without it the\n"
                            + "picture has only a viewBox and takes its container's width"
                    ) { o, v, _ throws(UsageError) in
                        guard let w = SVGRenderer.width(parsing: v) else {
                            throw UsageError("--width: \(SVGRenderer.widthProblem(v))")
                        }
                        o.width = w
                    },
                    CLIDefaults.databaseOption(
                        help: "database with custom device profiles and constant sets (HINGE_DB, default\n"
                            + "./hinge.sqlite)"
                    ) { o, db in o.db = db },
                    .one(
                        "--constant-set", "NAME[@N]",
                        help: "resolve with this constant set of the database (default: the built-in\n"
                            + "values), instead of the scene's constantSet"
                    ) { o, v, _ throws(UsageError) in
                        guard let ref = ConstantSetReference(v) else {
                            throw UsageError("--constant-set needs a set's name, name@version or default, not \"\(v)\"")
                        }
                        o.constantSet = ref
                    },
                    .one(
                        "--max-body", "BYTES", variable: "HINGE_MAX_BODY",
                        help: "read at most this much of FILE, exit 1 beyond it (HINGE_MAX_BODY,\n"
                            + "default \(CLIDefaults.maxBody), as the server's request-body limit)"
                    ) { o, v, name throws(UsageError) in o.maxBody = try CLIDefaults.maxBody(parsing: v, name) },
                ])
        ],
        footer: """
            EXIT STATUS:
              0  resolved; the resolution is on standard output
              1  the scene is not JSON or is invalid: the problem document (RFC 9457, pretty JSON) is on
                 standard error; or FILE or the database could not be read
              2  usage error (one line on standard error)
            """)
}

/// What a CLI run prints and returns, computed without touching the process (tests call it directly).
public struct CommandOutput: Sendable, Equatable {
    public var exitCode: Int32
    public var stdout: [UInt8]
    public var stderr: [UInt8]

    public init(exitCode: Int32, stdout: [UInt8] = [], stderr: [UInt8] = []) {
        self.exitCode = exitCode
        self.stdout = stdout
        self.stderr = stderr
    }

    public static func failure(_ message: String, exitCode: Int32 = 1) -> CommandOutput {
        CommandOutput(exitCode: exitCode, stderr: Array((message + "\n").utf8))
    }
}

/// `hinge resolve`: scene bytes in, what to print out.
public enum ResolveCommandRunner {
    public static func run(
        body: [UInt8], options: ResolveCommandOptions, catalog: any DeviceCatalog,
        constantSets: (any ConstantSetCatalog)? = nil
    ) -> CommandOutput {
        let overrides = options.overrides == SceneOverrides() ? nil : options.overrides
        let out = Resolver.resolve(
            body: body, catalog: catalog, overrides: overrides,
            constantSets: ConstantSetContext(catalog: constantSets, pin: options.constantSet))
        guard let resolution = out.resolution, !out.isProblem else {
            // The problem document as the service answers it, pretty-printed.
            let problem = (try? JSONParser.parse(out.json)).map { JSONWriter.encode($0, options: .pretty) } ?? out.json
            return CommandOutput(exitCode: 1, stderr: problem + [0x0A])
        }
        switch options.format {
        case .json:
            return CommandOutput(exitCode: 0, stdout: JSONWriter.encode(resolution.json, options: .pretty) + [0x0A])
        case .svg:
            // Drawn exactly as the server draws `POST /v1/resolve?format=svg` of the same body.
            var svg = Picture.draw(resolution, scene: try? JSONParser.parse(body), width: options.width)
            if !svg.hasSuffix("\n") { svg += "\n" }
            return CommandOutput(exitCode: 0, stdout: Array(svg.utf8))
        }
    }
}

extension ResolveCommandRunner {
    /// Reads `options.file`, opens the catalog (the database only when it exists) and resolves.
    public static func run(options: ResolveCommandOptions) -> CommandOutput {
        do throws(CLIError) {
            let body = try CLIFiles.read(options.file, limit: options.maxBody)
            let opened = try CLIFiles.catalog(db: options.db)
            defer { opened.store?.close() }
            return run(
                body: body, options: options, catalog: opened.catalog, constantSets: opened.store?.constantSets)
        } catch {
            return .failure("hinge resolve: \(error)")
        }
    }
}
