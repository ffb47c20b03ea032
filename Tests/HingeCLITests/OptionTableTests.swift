import ArgumentScanning
import LayoutEngine
import Resolving
import Store
import Testing

@testable import HingeCLI

/// One use of an option: the arguments it is given with (`before`, then the flag and `value`), and what it
/// sets, which must not hold without it.
struct OptionSample<Options>: @unchecked Sendable {
    // @unchecked: the samples are built and read by one test at a time; `check` is a pure predicate.
    let flag: String
    let value: String?
    let before: [String]
    let check: (Options) -> Bool

    init(_ flag: String, _ value: String? = nil, with before: [String], _ check: @escaping (Options) -> Bool) {
        self.flag = flag
        self.value = value
        self.before = before
        self.check = check
    }
}

/// Every entry of `table` has a sample, parses in both forms (`--flag VALUE`, `--flag=VALUE`) and sets what
/// its sample says; its flag and variable are in `--help`.
func checkEveryOption<Options, Parsed>(
    _ table: OptionTable<Options>, _ samples: [OptionSample<Parsed>], parse: ([String]) throws(UsageError) -> Parsed
) throws {
    #expect(samples.map(\.flag).sorted() == table.flags.sorted(), "one sample per flag of hinge \(table.command)")
    for sample in samples {
        let without = try parse(sample.before)
        #expect(!sample.check(without), "\(sample.flag): the sample's check holds without the flag")
        let forms: [[String]] =
            if let value = sample.value { [[sample.flag, value], ["\(sample.flag)=\(value)"]] } else { [[sample.flag]] }
        for form in forms {
            let parsed = try parse(sample.before + form)
            #expect(sample.check(parsed), "hinge \(table.command) \(form.joined(separator: " "))")
        }
    }
    let usage = table.usage
    for option in table.options {
        if let flag = option.flag { #expect(usage.contains(flag), "\(flag) is not in hinge \(table.command) --help") }
        if let variable = option.variable { #expect(usage.contains(variable), "\(variable) is not in the help") }
        for row in option.helpRows {
            #expect(usage.contains("\n  \(row.synopsis)"), "the row \(row.synopsis) starts no line of the help")
        }
    }
    #expect(usage.split(separator: "\n").filter { $0.hasPrefix("  -h, --help ") }.count == 1, "one -h, --help row")
    #expect(!usage.split(separator: "\n").contains { $0.count > 110 }, "a line of the help is wider than 110")
}

/// Each command refuses an unknown flag, before or after its other arguments and in either form, with the one
/// message of every subcommand.
func checkUnknownFlag<Options, Parsed>(
    _ table: OptionTable<Options>, valid: [String], parse: ([String]) throws(UsageError) -> Parsed
) {
    let expected = UsageError(
        "unknown option '--bogus' for 'hinge \(table.command)' (see hinge \(table.command) --help)")
    for arguments in [["--bogus"] + valid, valid + ["--bogus"], valid + ["--bogus=1"], ["--bogus", "x"] + valid] {
        #expect(throws: expected, "\(arguments)") { _ = try parse(arguments) }
    }
}

@Suite struct OptionTableTests {
    static let none: @Sendable (String) -> String? = { _ in nil }

    @Test func resolve() throws {
        typealias S = OptionSample<ResolveCommandOptions>
        let file = ["s.json"]
        try checkEveryOption(
            ResolveCommandOptions.table,
            [
                S("--device", "iphone-duo", with: file) { $0.overrides.device == "iphone-duo" },
                S("--posture", "halfOpened", with: file) { $0.overrides.posture == .halfOpened },
                S("--orientation", "landscape", with: file) { $0.overrides.orientation == .landscape },
                S("--layout-direction", "rtl", with: file) { $0.overrides.layoutDirection == .rtl },
                S("--format", "svg", with: file) { $0.format == .svg },
                S("--width", "390", with: file + ["--format", "svg"]) { $0.width == 390 },
                S("--db", "/tmp/x.sqlite", with: file) { $0.db == "/tmp/x.sqlite" },
                S("--constant-set", "acme@2", with: file) { $0.constantSet == ConstantSetReference("acme@2") },
                S("--max-body", "4096", with: file) { $0.maxBody == 4096 },
            ]
        ) { args throws(UsageError) in try ResolveCommandOptions.parse(args, environment: Self.none) }
        checkUnknownFlag(ResolveCommandOptions.table, valid: file) { args throws(UsageError) in
            try ResolveCommandOptions.parse(args, environment: Self.none)
        }
    }

    @Test func devices() throws {
        typealias S = OptionSample<DevicesCommandOptions>
        try checkEveryOption(
            DevicesCommandOptions.table,
            [
                S("--kind", "foldable", with: []) { $0.kind == .foldable },
                S("--db", "/tmp/x.sqlite", with: []) { $0.db == "/tmp/x.sqlite" },
            ]
        ) { args throws(UsageError) in try DevicesCommandOptions.parse(args, environment: Self.none) }
        checkUnknownFlag(DevicesCommandOptions.table, valid: []) { args throws(UsageError) in
            try DevicesCommandOptions.parse(args, environment: Self.none)
        }
    }

    @Test func scenes() throws {
        typealias S = OptionSample<ScenesCommandOptions>
        try checkEveryOption(ScenesCommandOptions.table, [S("--jobs", "3", with: ["App.swift"]) { $0.jobs == 3 }]) {
            args throws(UsageError) in try ScenesCommandOptions.parse(args)
        }
        checkUnknownFlag(ScenesCommandOptions.table, valid: ["App.swift"]) { args throws(UsageError) in
            try ScenesCommandOptions.parse(args)
        }
    }

    @Test func replay() throws {
        typealias S = OptionSample<ReplayCommandOptions>
        try checkEveryOption(
            ReplayCommandOptions.table,
            [
                S("--db", "/tmp/x.sqlite", with: []) { $0.db == "/tmp/x.sqlite" },
                S("--since", "2025-01-31T09:05:07Z", with: []) {
                    $0.since == Timestamp(iso8601: "2025-01-31T09:05:07Z")
                },
                S("--until", "2025-02-01T00:00:00Z", with: []) {
                    $0.until == Timestamp(iso8601: "2025-02-01T00:00:00Z")
                },
                S("--limit", "20", with: []) { $0.limit == 20 },
                S("--constant-set", "acme@2", with: []) { $0.constantSet == ConstantSetReference("acme@2") },
            ]
        ) { args throws(UsageError) in try ReplayCommandOptions.parse(args, environment: Self.none) }
        checkUnknownFlag(ReplayCommandOptions.table, valid: []) { args throws(UsageError) in
            try ReplayCommandOptions.parse(args, environment: Self.none)
        }
    }

    @Test func constantSets() throws {
        typealias S = OptionSample<ConstantSetsCommandOptions>
        let create = ["create", "acme", "--set", "sheet.topGap=12"]
        func creation(_ o: ConstantSetsCommandOptions) -> ConstantSetCreation? {
            if case .create(_, let c) = o.action { c } else { nil }
        }
        try checkEveryOption(
            ConstantSetsCommandOptions.table,
            [
                S("--db", "/tmp/x.sqlite", with: []) { $0.db == "/tmp/x.sqlite" },
                S("--format", "json", with: ["export", "acme@2", "f.json"]) {
                    $0.action == .export(ConstantSetReference(name: "acme", version: 2), file: "f.json", tokens: false)
                },
                S("--based-on", "acme@1", with: create) { creation($0)?.basedOn == "acme@1" },
                S("--set", "sheet.mediumFraction=0.4", with: create) {
                    creation($0)?.constants.map(\.key) == ["sheet.topGap", "sheet.mediumFraction"]
                },
                S("--note", "measured", with: create) { creation($0)?.note == "measured" },
                S("--server", "http://localhost:8080", with: create) { $0.server == "http://localhost:8080" },
                S("--api-key", "k3y", with: create) { $0.apiKey == "k3y" },
            ]
        ) { args throws(UsageError) in try ConstantSetsCommandOptions.parse(args, environment: Self.none) }
        checkUnknownFlag(ConstantSetsCommandOptions.table, valid: ["list"]) { args throws(UsageError) in
            try ConstantSetsCommandOptions.parse(args, environment: Self.none)
        }
    }

    @Test func lint() throws {
        typealias S = OptionSample<LintOptions>
        let path = ["s.json"]
        let rule = try #require(LintRules.ids.first)
        try checkEveryOption(
            LintOptions.table,
            [
                S("--devices", "iphone-16,iphone-duo", with: path) {
                    $0.matrix.devices == .ids(["iphone-16", "iphone-duo"])
                },
                S("--postures", "flat,halfOpened", with: path) { $0.matrix.postures == [.flat, .halfOpened] },
                S("--dynamic-type-sizes", "large,accessibility3", with: path) {
                    $0.matrix.dynamicTypeSizes == [.large, .accessibility3]
                },
                S("--orientations", "landscape", with: path) { $0.matrix.orientations == [.landscape] },
                S("--layout-directions", "rtl,ltr", with: path) { $0.matrix.layoutDirections == [.rtl, .ltr] },
                S("--constant", "sheet.topGap=12", with: path) { $0.constants == ["sheet.topGap": 12] },
                S("--constant-set", "acme@1", with: path) { $0.constantSet == ConstantSetReference("acme@1") },
                S("--db", "/tmp/x.sqlite", with: path) { $0.db == "/tmp/x.sqlite" },
                S("--devices-file", "devices.json", with: path) { $0.devicesFile == "devices.json" },
                S("--fail-on", "error", with: path) { $0.failOn == .error },
                S("--rule", "\(rule)=off", with: path) { $0.rules == [rule: .off] },
                S("--baseline", "baseline.json", with: path) { $0.baseline == "baseline.json" },
                S("--update-baseline", with: path) { $0.updateBaseline },
                S("--snapshots", "snapshots", with: path) { $0.snapshots == "snapshots" },
                S("--update-snapshots", with: path) { $0.updateSnapshots },
                S("--tolerance", "0.5", with: path) { $0.tolerance == 0.5 },
                S("--report", "junit=lint.xml", with: path) { $0.reports == [.junit(path: "lint.xml")] },
                S("--docs-url", "https://example.org/docs", with: path) { $0.docsURL == "https://example.org/docs" },
                S("--config", "lint.json", with: path) { $0.config == "lint.json" },
                S("--no-config", with: path) { $0.noConfig },
                S("--no-cache", with: path) { $0.noCache },
                S("--root", "project", with: path) { $0.root == "project" },
                S("--jobs", "3", with: path) { $0.jobs == 3 },
                S("--list-rules", with: path) { $0.listRules },
            ]
        ) { args throws(UsageError) in try LintOptions.parse(args, environment: Self.none) }
        checkUnknownFlag(LintOptions.table, valid: path) { args throws(UsageError) in
            try LintOptions.parse(args, environment: Self.none)
        }
    }

    @Test func repeatableOptionsKeepEveryValueInOrder() throws {
        let lint = try LintOptions.parse(
            [
                "s.json", "--report", "text", "--report=sarif=a.sarif", "--constant", "sheet.topGap=3", "--report",
                "github",
            ],
            environment: Self.none)
        #expect(lint.reports == [.text(path: nil), .sarif(path: "a.sarif"), .github])
        let sets = try ConstantSetsCommandOptions.parse(
            ["create", "acme", "--set", "a.b=1", "--set", "c.d=2", "--set", "a.b=3"], environment: Self.none)
        guard case .create(_, let creation) = sets.action else {
            Issue.record("not a create: \(sets.action)")
            return
        }
        #expect(creation.constants.map(\.key) == ["c.d", "a.b"])
        #expect(creation.constants.map(\.value) == [2, 3])
    }

    @Test func theFirstBadValueInTheArgumentsIsTheOneReported() {
        #expect(throws: UsageError("--limit must be a positive integer, got 'x'")) {
            try ReplayCommandOptions.parse(["--limit", "x", "--since", "y"], environment: Self.none)
        }
        #expect(throws: UsageError("--format must be one of json, svg, got 'png'")) {
            try ResolveCommandOptions.parse(["s.json", "--format", "png", "--posture", "open"], environment: Self.none)
        }
    }

    @Test func aFlagWithoutAValueRefusesOneInItsCommandsWords() {
        #expect(throws: UsageError("--list-rules takes no value")) {
            try LintOptions.parse(["--list-rules=yes"], environment: Self.none)
        }
        #expect(throws: UsageError("option --jobs needs a value")) {
            try LintOptions.parse(["s.json", "--jobs"], environment: Self.none)
        }
    }

    @Test func theDatabaseVariable() throws {
        let env: (String) -> String? = { $0 == "HINGE_DB" ? "/e.sqlite" : nil }
        let empty: (String) -> String? = { $0 == "HINGE_DB" ? "" : nil }
        #expect(try DevicesCommandOptions.parse([], environment: env).db == "/e.sqlite")
        #expect(try DevicesCommandOptions.parse(["--db", "/f.sqlite"], environment: env).db == "/f.sqlite")
        #expect(try DevicesCommandOptions.parse([], environment: empty).db == "./hinge.sqlite")
        #expect(try ReplayCommandOptions.parse(["--db="], environment: env).db == "")
        #expect(try ConstantSetsCommandOptions.parse([], environment: env).db == "/e.sqlite")
        // hinge lint keeps the variable apart from --db: it is read only when it names an existing database.
        let lint = try LintOptions.parse(["s.json"], environment: env)
        #expect(lint.db == nil && lint.environmentDB == "/e.sqlite")
        #expect(try LintOptions.parse(["s.json"], environment: empty).environmentDB == nil)
        #expect(throws: UsageError("--db needs a value")) {
            try LintOptions.parse(["s.json", "--db="], environment: Self.none)
        }
    }
}

/// The renderer of `--help`, on a table of its own.
@Suite struct OptionTableHelpTests {
    struct Options { var words: [String] = [] }

    static let table = OptionTable<Options>(
        command: "demo", header: "USAGE: hinge demo", helpColumn: 14,
        sections: [
            .init(
                "FIRST:",
                [
                    .list("--word", "W", help: "one\ntwo") { o, values, _ in o.words += values },
                    .one("--a-long-flag", "VALUE", help: String(repeating: "word ", count: 30)) { _, _, _ in },
                ]),
            .init("ONLY A VARIABLE:", [.one(nil, "N", variable: "DEMO_N", help: "n") { _, _, _ in }]),
        ],
        footer: "EXIT STATUS: 0")

    @Test func rowsBreakAtNewlinesWrapAtTheWidthAndPutALongSynopsisOnItsOwnLine() {
        let lines = Self.table.usage.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let indent = String(repeating: " ", count: 14)
        #expect(
            Array(lines.prefix(6)) == [
                "USAGE: hinge demo", "", "FIRST:", "  --word W    one", indent + "two", "  --a-long-flag VALUE",
            ])
        // 19 words of 4 letters and their spaces after the indent make 108 columns; a 20th would pass 109.
        let wrapped = Array(lines.dropFirst(6).prefix(2))
        #expect(wrapped.allSatisfy { $0.hasPrefix(indent + "word") })
        #expect(wrapped.map(\.count) == [14 + 19 * 5 - 1, 14 + 11 * 5 - 1])
        #expect(
            Array(lines.dropFirst(8)) == [
                "  -h, --help  show this help", "", "ONLY A VARIABLE:", "  DEMO_N      n", "", "EXIT STATUS: 0",
            ])
    }

    @Test func aRepeatableFlagReplacesItsVariablesList() throws {
        var o = Options()
        let env: (String) -> String? = { $0 == "DEMO_WORDS" ? "x, y" : nil }
        let table = OptionTable<Options>(
            command: "demo", header: "", helpColumn: 12,
            sections: [
                .init("", [.list("--word", "W", variable: "DEMO_WORDS", help: "") { o, values, _ in o.words = values }])
            ])
        try table.parse([], into: &o, environment: env) { _ throws(UsageError) in }
        #expect(o.words == ["x", "y"])
        try table.parse(["--word", "z", "--word=w"], into: &o, environment: env) { _ throws(UsageError) in }
        #expect(o.words == ["z", "w"])
    }
}
