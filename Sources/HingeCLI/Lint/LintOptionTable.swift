import ArgumentScanning
import JSON
import LayoutEngine

extension LintOptions {
    /// The options of `hinge lint` (docs/lint.md): parsing and `--help` come from it.
    public static let table = OptionTable<LintOptions>(
        command: "lint",
        header: """
            USAGE: hinge lint [options] PATH...

            Checks scene files (the body of POST /v1/resolve) with the engine, in-process: every diagnostic of every
            combination is a finding with its rule id, severity, file, line and column. A PATH is a scene file or a
            directory searched recursively for *.json files. Configuration: --config FILE, else hinge-lint.json
            found from the paths linted up to the repository root (docs/lint.md#config).
            """,
        helpColumn: 29,
        sections: [
            .init(
                "MATRIX (comma lists, the vocabulary of POST /v1/resolve/matrix; a dimension not given keeps the "
                    + "scene's own):", matrixOptions),
            .init("DEVICES:", deviceOptions),
            .init("FINDINGS:", findingOptions),
            .init("REPORTS (several in one run; default: text):", reportOptions),
            .init("OTHER:", otherOptions),
        ],
        footer: """
            EXIT STATUS:
              0  no finding at or above --fail-on
              1  a finding at or above --fail-on
              2  usage error, a path or file that cannot be read or written, an invalid configuration
            """,
        valueRefused: { UsageError("\($0) takes no value") })

    private static let matrixOptions: [CommandOption<LintOptions>] = [
        .one("--devices", "IDS|all", help: "device ids, or every profile of the catalog") {
            o, v, name throws(UsageError) in
            o.matrix.devices = try LintMatrix.devices(CommandArguments.commaSeparated(v), name: name)
        },
        .one("--postures", "LIST", help: "flat, halfOpened, closed (devices that fold; others are checked flat)") {
            o, v, name throws(UsageError) in
            o.matrix.postures = try LintMatrix.dimension(CommandArguments.commaSeparated(v), name: name, Posture.self)
        },
        .one("--orientations", "LIST", help: "portrait, landscape") { o, v, name throws(UsageError) in
            o.matrix.orientations = try LintMatrix.dimension(
                CommandArguments.commaSeparated(v), name: name, Orientation.self)
        },
        .one("--layout-directions", "LIST", help: "ltr, rtl") { o, v, name throws(UsageError) in
            o.matrix.layoutDirections = try LintMatrix.dimension(
                CommandArguments.commaSeparated(v), name: name, LayoutDirection.self)
        },
        .one(
            "--dynamic-type-sizes", "LIST",
            help: "text sizes, xSmall … xxxLarge, accessibility1 … accessibility5 (default: the scene's)"
        ) { o, v, name throws(UsageError) in
            o.matrix.dynamicTypeSizes = try LintMatrix.dimension(
                CommandArguments.commaSeparated(v), name: name, DynamicTypeSize.self)
        },
        .list(
            "--constant", "KEY=VALUE",
            help: "set a constant in every scene (repeatable; GET /v1/constants lists them)"
        ) { o, values, name throws(UsageError) in
            for value in values {
                let (key, text) = try pair(value, name: name)
                o.constants[key] = try constant(key, Double(text), text: "\"\(text)\"")
            }
        },
        .one(
            "--constant-set", "NAME[@N]",
            help: "resolve every scene with this constant set of the database (--db)"
        ) { o, v, _ throws(UsageError) in
            guard let ref = ConstantSetReference(v) else {
                throw UsageError("--constant-set needs a set's name, name@version or default, not \"\(v)\"")
            }
            o.constantSet = ref
        },
    ]

    private static let deviceOptions: [CommandOption<LintOptions>] = [
        // HINGE_DB is kept apart (`environmentDB`): a devices file, given or configured, wins over it, while --db
        // with --devices-file is a usage error.
        .one(
            "--db", "PATH", variable: "HINGE_DB",
            help: "custom profiles of a database, as for hinge resolve (HINGE_DB, default\n"
                + "./hinge.sqlite when it exists)"
        ) { o, v, source throws(UsageError) in
            if source == "HINGE_DB" {
                o.environmentDB = v.isEmpty ? nil : try CLIDefaults.database(v)
            } else {
                o.db = try CLIDefaults.database(nonEmpty(v, source))
            }
        },
        .one("--devices-file", "FILE", help: "custom profiles from a JSON list of profiles (the API's shape)") {
            o, v, name throws(UsageError) in o.devicesFile = try nonEmpty(v, name)
        },
    ]

    private static let findingOptions: [CommandOption<LintOptions>] = [
        .one(
            "--fail-on", "LEVEL",
            help: "error, warning (default), info, never: exit 1 when a finding is at or above it"
        ) { o, v, name throws(UsageError) in o.failOn = try CommandArguments.choice(v, name, LintFailOn.self) },
        .list(
            "--rule", "ID=SEVERITY",
            help: "error, warning, info or off for one rule (repeatable; wins over the config)"
        ) { o, values, name throws(UsageError) in
            for value in values {
                let (id, text) = try pair(value, name: name)
                guard LintRules.index(of: id) != nil else {
                    let hint = NameSuggestion.suggestion(for: id, among: LintRules.ids).map {
                        ": did you mean \"\($0)\"?"
                    }
                    throw UsageError("--rule: unknown rule \"\(id)\"" + (hint ?? " (hinge lint --list-rules)"))
                }
                guard let setting = LintRuleSetting(name: text) else {
                    throw UsageError("--rule \(id) must be one of \(LintRuleSetting.names.joined(separator: ", "))")
                }
                o.rules[id] = setting
            }
        },
        .one(
            "--baseline", "FILE",
            help: "hide the findings recorded in FILE; report the ones it no longer matches"
        ) { o, v, name throws(UsageError) in o.baseline = try nonEmpty(v, name) },
        .onOff("--update-baseline", help: "write the current findings to the baseline file") { o, on in
            o.updateBaseline = on
        },
        .one(
            "--snapshots", "DIR", help: "compare each scene's placements with its snapshot (placement-changed)"
        ) { o, v, name throws(UsageError) in o.snapshots = try nonEmpty(v, name) },
        .onOff("--update-snapshots", help: "write the snapshots") { o, on in o.updateSnapshots = on },
        .one(
            "--tolerance", "PT",
            help: "largest difference of a number that is not a change (default \(defaultTolerance))"
        ) { o, v, _ throws(UsageError) in
            guard let t = Double(v), t >= 0, t <= maxTolerance else {
                throw UsageError("--tolerance must be a number of points from 0 to \(Int(maxTolerance))")
            }
            o.tolerance = t
        },
    ]

    private static let reportOptions: [CommandOption<LintOptions>] = [
        .list(
            "--report", "KIND[=PATH]", help: "a reporter: text[=PATH], junit=PATH, sarif=PATH or github",
            rows: [
                .init("--report text[=PATH]", "file:line:col: severity: message [rule] (combination), and a summary"),
                .init("--report junit=PATH", "JUnit XML: a testsuite per scene file, a testcase per combination"),
                .init("--report sarif=PATH", "SARIF 2.1.0"),
                .init("--report github", "GitHub Actions annotations, and a summary in $GITHUB_STEP_SUMMARY"),
            ]
        ) { o, values, _ throws(UsageError) in
            for value in values { o.reports.append(try report(value)) }
        },
        .one(
            "--docs-url", "URL",
            help: "where docs/ is published, for SARIF helpUri and summary links (none without)"
        ) { o, v, name throws(UsageError) in o.docsURL = try nonEmpty(v, name) },
    ]

    private static let otherOptions: [CommandOption<LintOptions>] = [
        .one("--config", "FILE", help: "the configuration file; --no-config reads none") {
            o, v, name throws(UsageError) in o.config = try nonEmpty(v, name)
        },
        // Named in --config's row.
        .onOff("--no-config", help: "read no configuration file", rows: []) { o, on in o.noConfig = on },
        .one(
            "--root", "DIR",
            help: "the repository root: paths are shown relative to it, the configuration is\n"
                + "looked for up to it, nothing is written outside it (default: git's top level)"
        ) { o, v, name throws(UsageError) in o.root = try nonEmpty(v, name) },
        .one("--jobs", "N", help: "worker threads (default: the processors, at most 8)") {
            o, v, _ throws(UsageError) in
            guard let n = Int(v), n >= 1, n <= maxJobs else {
                throw UsageError("--jobs must be a whole number from 1 to \(maxJobs)")
            }
            o.jobs = n
        },
        .onOff(
            "--no-cache",
            help: "neither read nor write the cache of Swift results ($XDG_CACHE_HOME/hinge/lint,\n"
                + "else ~/.cache/hinge/lint; docs/lint.md#cache)"
        ) { o, on in o.noCache = on },
        .onOff("--list-rules", help: "print every rule id, its default severity and its documentation") { o, on in
            o.listRules = on
        },
    ]
}
