import ArgumentScanning
import JSON
import LayoutEngine

/// Options of `hinge devices [ID]`.
public struct DevicesCommandOptions: Sendable, Equatable {
    /// Show this profile's JSON; nil lists them.
    public var id: String?
    /// `--kind`: list only this kind.
    public var kind: DeviceProfile.Kind?
    public var db = CLIDefaults.db

    public init(id: String? = nil, kind: DeviceProfile.Kind? = nil) {
        self.id = id
        self.kind = kind
    }

    public static var usage: String { table.usage }

    public static func parse(_ arguments: [String], environment: (String) -> String?) throws(UsageError)
        -> DevicesCommandOptions
    {
        var o = DevicesCommandOptions()
        var id: String?
        try table.parse(arguments, into: &o, environment: environment) { p throws(UsageError) in
            guard id == nil else { throw table.extraArgument(p) }
            id = p
        }
        o.id = id
        if o.id != nil, o.kind != nil { throw UsageError("--kind filters the list; it does not apply with an ID") }
        return o
    }

    /// The options of `hinge devices`: parsing and `--help` come from it.
    public static let table = OptionTable<DevicesCommandOptions>(
        command: "devices",
        header: """
            USAGE: hinge devices [ID] [options]

            Without ID: a table of the device profiles (id, kind, name, displays in points, built-in or custom).
            With ID: that profile's JSON (docs/rules.md#device-profiles), pretty-printed.

            Profiles: the built-ins, plus the custom profiles of the database (never created). Without --db or
            HINGE_DB a missing ./hinge.sqlite means the built-ins alone; a database named there must exist.
            """,
        helpColumn: 15,
        sections: [
            .init(
                "OPTIONS:",
                [
                    .one("--kind", "K", help: "list only phone | tablet | foldable | desktop") {
                        o, v, name throws(UsageError) in
                        o.kind = try CommandArguments.choice(v, name, DeviceProfile.Kind.self)
                    },
                    CLIDefaults.databaseOption(
                        help: "database with custom device profiles: a SQLite file or a postgres:// URL\n"
                            + "(HINGE_DB, default ./hinge.sqlite)"
                    ) { o, db in o.db = db },
                ])
        ],
        footer: """
            EXIT STATUS: 0 listed or shown; 1 no profile has this ID, or the database could not be read;
            2 usage error.
            """)
}

/// `hinge devices`: what to print for a catalog's profiles.
public enum DevicesCommandRunner {
    public static func run(options: DevicesCommandOptions, profiles: [DeviceProfile]) -> CommandOutput {
        if let id = options.id {
            guard let p = profiles.first(where: { $0.id == id }) else {
                return .failure(
                    "hinge devices: no device profile has the id '\(TerminalText.escaped(id))' (run 'hinge devices' "
                        + "for the list)")
            }
            return CommandOutput(exitCode: 0, stdout: JSONWriter.encode(p.json, options: .pretty) + [0x0A])
        }
        let listed = options.kind.map { k in profiles.filter { $0.kind == k } } ?? profiles
        return CommandOutput(exitCode: 0, stdout: Array(table(listed).utf8))
    }

    /// Columns ID, KIND, NAME, DISPLAYS (`w×h` points, several joined by `, `), SOURCE (built-in/custom),
    /// left-aligned and padded to the widest cell.
    public static func table(_ profiles: [DeviceProfile]) -> String {
        let header = ["ID", "KIND", "NAME", "DISPLAYS", "SOURCE"]
        let rows = profiles.map { p in
            [
                TerminalText.escaped(p.id), p.kind.rawValue, TerminalText.escaped(p.name),
                p.displays.map { "\(JSONWriter.formatNumber($0.width))×\(JSONWriter.formatNumber($0.height))" }
                    .joined(separator: ", "),
                p.builtIn ? "built-in" : "custom",
            ]
        }
        let all = [header] + rows
        var widths = [Int](repeating: 0, count: header.count)
        for row in all { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        var out = ""
        for row in all {
            var line = ""
            for (i, cell) in row.enumerated() {
                line += i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count + 2)
            }
            out += line + "\n"
        }
        return out
    }
}

extension DevicesCommandRunner {
    /// Opens the catalog (the database only when it exists) and lists or shows.
    public static func run(options: DevicesCommandOptions) -> CommandOutput {
        do throws(CLIError) {
            let opened = try CLIFiles.catalog(db: options.db)
            defer { opened.store?.close() }
            return run(options: options, profiles: opened.catalog.allProfiles())
        } catch {
            return .failure("hinge devices: \(error)")
        }
    }
}
